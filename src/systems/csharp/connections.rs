//! Database connections a .NET program opens by the name of a connection
//! string (issue 19, item 5): `AddDbContext<T>(o =>
//! o.UseSqlServer(builder.Configuration.GetConnectionString("Orders")))`,
//! `configuration["ConnectionStrings:Orders"]`, or a local read so and
//! handed to the provider. The code names the connection; the program's
//! `appsettings*.json` says where it goes (`"ConnectionStrings": {
//! "Orders": "Server=sqldata;Database=Orders;.." }`). Without an Aspire
//! AppHost nothing else draws that edge.
//!
//! The C# reader leaves each read as an unresolved call whose `written`
//! ends with [`UNRESOLVED`] (client [`client`]), with the EF Core retry of
//! the same provider call as its policy; the settings reader here records
//! each connection string's server as a stand-in edge ([`VIA`]); the link
//! step ([`join`]) gives each read the servers of its program's settings
//! (`appsettings.json` first, else the environments' files) and drops the
//! stand-ins and the reads no settings file resolves (a connection the
//! code builds itself, or one an orchestrator supplies, is not guessed).
//!
//! The same settings files may turn off the retry of an Aspire EF Core
//! integration (`"Aspire": { "Microsoft": { "EntityFrameworkCore": {
//! "SqlServer": { "DisableRetry": true } } } }`, or under the section of
//! one `DbContext` type; `"Retry": false` in Aspire 8): each such key is a
//! stand-in too ([`ASPIRE_SETTING`]), given by [`join`] to the program's
//! policies bound to that section (`RetryPolicy::config_section`, set by
//! the C# reader on an `Add*DbContext<T>(..)` whose code does not write
//! the setting).
//!
//! The server is the connection string's `Server` / `Data Source` /
//! `Host` / `Address` key (SqlClient, Npgsql and MySqlConnector's
//! keywords, compared ignoring case and spaces), without SqlClient's
//! `tcp:` prefix, port (`,1433`, `:5432`) and instance (`\SQLEXPRESS`).
//! This machine (`localhost`, `.`, `(localdb)\..`, a loopback address), a
//! file (SQLite's `Data Source=app.db`) or a socket path is no service.

use super::link::units;
use crate::model::calls::Protocol;
use crate::model::{AttemptCount, Attempts, CallEdge, Located, ScannedFile, SettingPlace, System};
use std::collections::{BTreeMap, BTreeSet};

/// How the via of a connection string's stand-in edge begins.
pub const VIA: &str = "connection string";

/// How the `written` of a read left for the link step ends.
pub const UNRESOLVED: &str = " (C#, server in the program's appsettings ConnectionStrings)";

/// The client name joining a read to the settings of the same name
/// (configuration keys ignore case).
pub fn client(name: &str) -> String {
    format!("ConnectionStrings:{}", name.to_ascii_lowercase())
}

/// How the via and client of an Aspire retry setting's stand-in begin.
pub const ASPIRE_SETTING: &str = "Aspire retry setting ";

/// The keywords that name the server, without spaces, lower case.
const SERVER_KEYS: &[&str] = &[
    "server",
    "datasource",
    "host",
    "address",
    "addr",
    "networkaddress",
];

/// The server a connection string names, when it is another machine.
pub fn server(conn: &str) -> Option<String> {
    let value = conn.split(';').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        let k: String = k.chars().filter(|c| !c.is_whitespace()).collect();
        SERVER_KEYS
            .contains(&k.to_ascii_lowercase().as_str())
            .then(|| v.trim())
    })?;
    let lower = value.to_ascii_lowercase();
    let v = ["tcp:", "np:", "lpc:", "admin:"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower);
    // A file or socket path, a placeholder.
    if v.contains(['/', '{', '$', '%', '(', '|'])
        || v.contains(":\\")
        || [".db", ".sqlite", ".sqlite3", ".mdf", ".sdf"]
            .iter()
            .any(|e| v.ends_with(e))
    {
        return None;
    }
    let host = v.split([',', '\\', ' ']).next().unwrap_or("");
    // `host:port`, not an IPv6 address.
    let host = match host.matches(':').count() {
        1 => host.split(':').next().unwrap_or(""),
        _ => host,
    };
    let local = host.is_empty()
        || host == "."
        || host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    (!local).then(|| crate::model::calls::short_host(host))
}

pub mod config {
    //! The `ConnectionStrings` section of `appsettings*.json`.

    use super::*;
    use crate::extract::DocCtx;
    use crate::model::Facts;
    use crate::systems::dotnet::extract::find;

    /// Words that make a JSON file worth parsing for it.
    pub const NEEDLES: &[&str] = &[
        "\"ConnectionStrings\"",
        "\"DisableRetry\"",
        "\"Retry\"",
        "\"MaxRetryCount\"",
    ];

    /// Connection strings a file may declare before the reader stops.
    const MAX_STRINGS: usize = 1_000;

    /// Read one `appsettings*.json` document.
    pub fn extract_doc(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
        let name = ctx
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if !crate::systems::dotnet::extract::is_appsettings(&name) {
            return false;
        }
        let root = ctx.root();
        if !root.is_map() {
            return false;
        }
        let mut found = aspire(root, facts);
        found |= crate::systems::csharp::config_addresses::stand_ins(root, facts);
        let Some(section) = find(&root.entries(), "ConnectionStrings").filter(|s| s.value.is_map())
        else {
            return found;
        };
        for e in section.value.entries().into_iter().take(MAX_STRINGS) {
            let Some(server) = e.value.as_str().and_then(server) else {
                continue;
            };
            facts.edges.push(CallEdge {
                caller: None,
                callee: server,
                span: e.value.span(),
                policies: Vec::new(),
                via: format!("{VIA} `{}` in appsettings", e.key),
                client: Some(client(e.key)),
                protocol: Some(Protocol::Sql),
            });
            found = true;
        }
        found
    }

    /// How deep the `Aspire` section is searched.
    const MAX_DEPTH: usize = 8;

    /// `DisableRetry` / `Retry` booleans under the `Aspire` section, each
    /// a stand-in edge: its section's path (lower case) in the client,
    /// whether the retry stays on in the callee.
    fn aspire(root: crate::yaml::Yaml<'_>, facts: &mut Facts) -> bool {
        let Some(top) = find(&root.entries(), "Aspire").filter(|s| s.value.is_map()) else {
            return false;
        };
        let mut found = 0;
        let mut stack = vec![(top.value, "aspire".to_string(), 0)];
        while let Some((node, path, depth)) = stack.pop() {
            if depth > MAX_DEPTH || found >= MAX_STRINGS {
                continue;
            }
            for e in node.entries() {
                if e.value.is_map() {
                    let key = e.key.to_ascii_lowercase();
                    stack.push((e.value, format!("{path}:{key}"), depth + 1));
                    continue;
                }
                let value = e.value.as_str().map(|v| v.trim().to_ascii_lowercase());
                let callee = match (e.key.to_ascii_lowercase().as_str(), value.as_deref()) {
                    ("disableretry", Some("true")) | ("retry", Some("false")) => "off".into(),
                    ("disableretry", Some("false")) | ("retry", Some("true")) => "on".into(),
                    // The 8.0 previews' count (0: off).
                    ("maxretrycount", Some(n)) if n.parse::<u64>().is_ok() => {
                        format!("retries {n}")
                    }
                    _ => continue,
                };
                facts.edges.push(CallEdge {
                    caller: None,
                    callee,
                    span: e.value.span(),
                    policies: Vec::new(),
                    via: format!("{ASPIRE_SETTING}`{}: {}`", e.key, value.unwrap_or_default()),
                    client: Some(format!("{ASPIRE_SETTING}{path}")),
                    protocol: None,
                });
                found += 1;
            }
        }
        found > 0
    }
}

/// Whether a file is an `appsettings*.json` one.
fn is_settings(f: &ScannedFile) -> bool {
    f.source
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|n| crate::systems::dotnet::extract::is_appsettings(&n))
}

fn is_aspire(e: &CallEdge) -> bool {
    e.caller.is_none()
        && e.via.starts_with(ASPIRE_SETTING)
        && e.client
            .as_deref()
            .is_some_and(|c| c.starts_with(ASPIRE_SETTING))
}

fn is_server(e: &CallEdge) -> bool {
    e.via.starts_with(VIA)
        && e.caller.is_none()
        && e.protocol == Some(Protocol::Sql)
        && e.client
            .as_deref()
            .is_some_and(|c| c.starts_with("ConnectionStrings:"))
}

/// An Aspire retry setting: the retries it sets (`None`: the
/// integration's default, `Some(0)`: off), the key as written, where.
type Setting = (Option<u64>, String, SettingPlace);

/// The retries an Aspire setting's stand-in says (its callee: `on`,
/// `off`, or the previews' `MaxRetryCount` as `retries N`).
fn retries_of(callee: &str) -> Option<u64> {
    match callee {
        "off" => Some(0),
        c => c.strip_prefix("retries ").and_then(|n| n.parse().ok()),
    }
}

/// (unit, section path) -> the base file's setting and the environments'.
type Settings = BTreeMap<(String, String), (Option<Setting>, Vec<Setting>)>;

/// Each read of a connection string by name becomes an edge to the
/// servers its program's settings give that name; the settings' stand-in
/// edges and the reads left unresolved go. The Aspire retry settings are
/// given to the policies bound to their sections ([`aspire_retries`]).
pub fn join(files: &mut [ScannedFile], env: &super::env::Env) {
    // (unit, client) -> servers, from `appsettings.json` (true) or an
    // environment's file (false).
    let mut servers: BTreeMap<(String, String), BTreeSet<(bool, String)>> = BTreeMap::new();
    let mut aspire: Settings = BTreeMap::new();
    let mut any = false;
    for f in files.iter_mut().filter(|f| is_settings(f)) {
        let base = f
            .source
            .path
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("appsettings.json"));
        let us = units(f);
        for e in f.facts.edges.iter().filter(|e| is_aspire(e)) {
            let place = SettingPlace {
                path: f.source.display_path(),
                line: f.source.line_col(e.span.start).line,
            };
            let path = e.client.as_deref().unwrap_or_default()[ASPIRE_SETTING.len()..].to_string();
            let v: Setting = (
                retries_of(&e.callee),
                e.via[ASPIRE_SETTING.len()..].to_string(),
                place,
            );
            // A developer's file says nothing of where the program runs.
            let development = f.source.path.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .to_ascii_lowercase()
                    .contains(".development.")
            });
            for u in &us {
                let slot = aspire.entry((u.clone(), path.clone())).or_default();
                if base {
                    slot.0 = Some(v.clone());
                } else if !development {
                    slot.1.push(v.clone());
                }
            }
        }
        for e in f.facts.edges.iter().filter(|e| is_server(e)) {
            any = true;
            for u in &us {
                let key = (u.clone(), e.client.clone().unwrap_or_default());
                servers
                    .entry(key)
                    .or_default()
                    .insert((base, e.callee.clone()));
            }
        }
        f.facts.edges.retain(|e| !is_server(e) && !is_aspire(e));
    }
    if !aspire.is_empty() || !env.is_empty() {
        for f in files.iter_mut() {
            aspire_retries(f, &aspire, env);
        }
    }
    for f in files.iter_mut() {
        if !f
            .facts
            .unresolved
            .iter()
            .any(|c| c.written.ends_with(UNRESOLVED))
        {
            continue;
        }
        let us = units(f);
        let mut kept = Vec::new();
        for call in std::mem::take(&mut f.facts.unresolved) {
            let Some(c) = call
                .client
                .clone()
                .filter(|_| call.written.ends_with(UNRESOLVED))
            else {
                kept.push(call);
                continue;
            };
            if !any && env.is_empty() {
                continue;
            }
            let via = call.written.trim_end_matches(UNRESOLVED);
            for u in &us {
                // The workloads' environment first (`ConnectionStrings__Orders`),
                // the settings files where a workload does not set it.
                let found = env.lookup(u, &c);
                let mut to: Vec<(String, String)> = found
                    .set
                    .iter()
                    .filter_map(|(w, e)| Some((server(&e.value)?, super::env::via(via, w, e))))
                    .collect();
                if found.files_hold
                    && let Some(all) = servers.get(&(u.clone(), c.clone()))
                {
                    let base = all.iter().any(|(b, _)| *b);
                    to.extend(
                        all.iter()
                            .filter(|(b, _)| *b == base)
                            .map(|(_, s)| (s.clone(), via.to_string())),
                    );
                }
                for (server, via) in to {
                    f.facts.edges.push(CallEdge {
                        caller: Some(u.clone()),
                        callee: server,
                        span: call.span,
                        policies: call.policies.clone(),
                        via,
                        client: None,
                        protocol: Some(Protocol::Sql),
                    });
                }
            }
        }
        f.facts.unresolved = kept;
    }
}

/// An Aspire EF Core integration's retry turned off in its program's
/// settings: the section of its `DbContext` type, else the integration's
/// own (Aspire binds the type's section when it exists); the base
/// `appsettings.json`, else the environments' files (not
/// `appsettings.Development.json`) when every one that sets it agrees. The policy then makes one attempt, as the setting says.
fn aspire_retries(f: &mut ScannedFile, settings: &Settings, env: &super::env::Env) {
    let us = units(f);
    // The workloads' environment (`Aspire__Npgsql__..__DisableRetry`)
    // wins over the files, where every workload running the program sets
    // it alike.
    let from_env = |u: &String, path: &str| -> Option<Setting> {
        let mut found: Vec<Setting> = Vec::new();
        for leaf in ["disableretry", "retry", "maxretrycount"] {
            let l = env.lookup(u, &format!("{path}:{leaf}"));
            if l.set.is_empty() {
                continue;
            }
            if l.files_hold {
                return None;
            }
            for (_, e) in l.set {
                let v = e.value.trim().to_ascii_lowercase();
                let retries = match (leaf, v.as_str()) {
                    ("disableretry", "true") | ("retry", "false") => Some(0),
                    ("disableretry", "false") | ("retry", "true") => None,
                    ("maxretrycount", n) => Some(n.parse::<u64>().ok()?),
                    _ => return None,
                };
                found.push((retries, format!("{}={}", e.var, e.value), e.place.clone()));
            }
        }
        let first = found.first()?.clone();
        found.iter().all(|s| s.0 == first.0).then_some(first)
    };
    for p in f.facts.policies.iter_mut() {
        if p.system != System::EfCore || p.attempts.is_written() {
            continue;
        }
        let Some(typed) = p
            .config_section
            .as_deref()
            .map(str::to_ascii_lowercase)
            .filter(|c| c.starts_with("aspire:"))
        else {
            continue;
        };
        let general = typed
            .rsplit_once(':')
            .map_or(typed.clone(), |(g, _)| g.to_string());
        let found: Vec<(Setting, &str)> = us
            .iter()
            .filter_map(|u| {
                [&typed, &general].into_iter().find_map(|path| {
                    if let Some(s) = from_env(u, path) {
                        return Some((s, "in the environment"));
                    }
                    let (base, envs) = settings.get(&(u.clone(), path.clone()))?;
                    base.as_ref()
                        .or_else(|| {
                            let first = envs.first()?;
                            envs.iter().all(|e| e.0 == first.0).then_some(first)
                        })
                        .map(|s| (s.clone(), "in appsettings"))
                })
            })
            .collect();
        let [((Some(retries), written, place), whence)] = &found[..] else {
            continue;
        };
        p.attempts = Located::written(
            Attempts {
                count: AttemptCount::Finite(retries.saturating_add(1)),
                written_as: format!("{written} {whence}"),
            },
            p.span,
        );
        p.settings_from.push(place.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::server;

    #[test]
    fn the_server_of_a_connection_string() {
        let s = |c: &str| server(c);
        assert_eq!(
            s("Server=sqldata;Database=x;User Id=sa").as_deref(),
            Some("sqldata")
        );
        assert_eq!(
            s("server=tcp:sqlserver,1433;database=y").as_deref(),
            Some("sqlserver")
        );
        assert_eq!(
            s("Host=postgres:5432;Username=u").as_deref(),
            Some("postgres")
        );
        assert_eq!(
            s("Data Source=orders-db\\SQLEXPRESS;").as_deref(),
            Some("orders-db")
        );
        assert_eq!(s("Network Address = db1 ; x=y").as_deref(), Some("db1"));
        for local in [
            "Server=localhost,1434;",
            "Server=.;Database=x",
            "Server=(localdb)\\mssqllocaldb;Database=x",
            "Host=127.0.0.1;",
            "Data Source=app.db",
            "Data Source=C:\\data\\shop.sqlite",
            "Host=/var/run/postgresql",
            "Server={0};",
            "redis:6379,abortConnect=false",
            "Endpoint=sb://bus.servicebus.windows.net/;SharedAccessKeyName=x",
        ] {
            assert_eq!(s(local), None, "{local}");
        }
    }
}
