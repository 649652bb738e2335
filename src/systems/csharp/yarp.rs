//! YARP (`Yarp.ReverseProxy`), the .NET reverse proxy (issue 19, left item
//! 1): each destination a proxy program forwards to is a call edge from
//! that program, with YARP's own behaviour as its layer.
//!
//! Read from `appsettings*.json` here (a section with `Clusters`, each
//! cluster's `Destinations` with an `Address`, as
//! `LoadFromConfig(GetSection("ReverseProxy"))` reads them: the section's
//! name is the program's choice, so it is known by its shape), and from
//! code in [`super::extract`] (`new DestinationConfig { Address = .. }`,
//! `MapForwarder(pattern, "http://..")`, `IHttpForwarder.SendAsync(ctx,
//! "http://..", ..)`).
//!
//! YARP's defaults, from dotnet/yarp (commit bd11867):
//! - it forwards each request once: `HttpForwarder.SendAsync`
//!   (`src/ReverseProxy/Forwarder/HttpForwarder.cs`, last changed in
//!   b8291f9) sends the request once and answers 502/504 on an error or
//!   timeout; its only second send is a WebSocket upgrade downgraded from
//!   HTTP/2 to HTTP/1.1, never a retry of a failed request. Passive health
//!   checks mark destinations, they resend nothing;
//! - `ForwarderRequestConfig.ActivityTimeout` (a cluster's
//!   `HttpRequest:ActivityTimeout`): `DefaultTimeout =
//!   TimeSpan.FromSeconds(100)` in `HttpForwarder.cs`, used as
//!   `requestConfig?.ActivityTimeout ?? DefaultTimeout`. It cancels a
//!   request idle that long, reset when the response headers arrive: the
//!   time the proxy waits for the destination's answer, its one attempt;
//! - the cluster's `HttpClient` (`ForwarderHttpClientFactory.CreateClient`,
//!   `src/ReverseProxy/Forwarder/ForwarderHttpClientFactory.cs`): a
//!   `SocketsHttpHandler` with `ConnectTimeout = TimeSpan.FromSeconds(15)`,
//!   no proxy, no redirects, no cookies; `HttpClientConfig` sets TLS,
//!   `MaxConnectionsPerServer`, HTTP/2 connections, header encodings and a
//!   web proxy, none of which resends a request. The client is YARP's own
//!   `HttpMessageInvoker` (`IReverseProxyBuilderExtensions.cs` registers
//!   `IForwarderHttpClientFactory` as `ForwarderHttpClientFactory`), not
//!   one of `IHttpClientFactory`: a standard handler on every client
//!   (`ConfigureHttpClientDefaults`) is not on a forwarded request.

use crate::model::*;
use crate::source::Span;
use std::collections::BTreeMap;
use std::time::Duration;

/// `HttpForwarder.DefaultTimeout`, the activity timeout of a request whose
/// `ForwarderRequestConfig` sets none (dotnet/yarp
/// `src/ReverseProxy/Forwarder/HttpForwarder.cs`, commit bd11867).
pub const DEFAULT_ACTIVITY_TIMEOUT: Duration = Duration::from_secs(100);

/// What a named request timeout policy of the program's code is
/// (`AddRequestTimeouts(o => o.AddPolicy("name", ..))`).
pub const POLICY_WHAT: &str = "request timeout policy";

/// How the timeout a cluster's routes name by `TimeoutPolicy` is written
/// until the link step finds the policy (the name follows).
pub const ROUTE_WHAT: &str = "route TimeoutPolicy ";

/// A cluster whose routes name a request timeout policy
/// (`"TimeoutPolicy": "slow"`, dotnet/yarp bd11867 `RouteConfig.cs`: a
/// policy of ASP.NET Core's request timeouts, applied as a route's
/// `Timeout` is) takes that policy's timeout, where the program's code
/// adds it and it is shorter than the activity timeout: the request is
/// cancelled then, and the forward with it. A name no code of the
/// program adds is left alone (the activity timeout stands).
pub fn timeout_policies(files: &mut [ScannedFile]) {
    let mut named: BTreeMap<(String, String), Vec<(Duration, SettingPlace)>> = BTreeMap::new();
    for f in files.iter() {
        for t in &f.facts.timeouts {
            if t.system != System::Yarp || t.what != POLICY_WHAT {
                continue;
            }
            let (Some(name), Some(d)) = (&t.name, t.timeout.value.finite()) else {
                continue;
            };
            let place = SettingPlace {
                path: f.source.display_path(),
                line: f.source.line_col(t.timeout.span.start).line,
            };
            for u in super::link::units(f) {
                named
                    .entry((u, name.to_ascii_lowercase()))
                    .or_default()
                    .push((d, place.clone()));
            }
        }
    }
    if named.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        let wants: Vec<(String, String, Span)> = f
            .facts
            .timeouts
            .iter()
            .filter(|t| t.system == System::Yarp)
            .filter_map(|t| {
                let policy = t.what.strip_prefix(ROUTE_WHAT)?;
                Some((t.name.clone()?, policy.to_ascii_lowercase(), t.timeout.span))
            })
            .collect();
        if wants.is_empty() {
            continue;
        }
        let units = super::link::units(f);
        for (cluster, policy, at) in wants {
            let found: Vec<&(Duration, SettingPlace)> = units
                .iter()
                .filter_map(|u| named.get(&(u.clone(), policy.clone())))
                .flatten()
                .collect();
            // One value (a name added twice alike, or in one program).
            let Some(&(d, ref place)) = found.first().copied() else {
                continue;
            };
            if found.iter().any(|(e, _)| *e != d) {
                continue;
            }
            for p in
                f.facts.policies.iter_mut().filter(|p| {
                    p.system == System::Yarp && p.name.as_deref() == Some(cluster.as_str())
                })
            {
                let longer = p
                    .overall_timeout
                    .as_ref()
                    .and_then(|t| t.value.finite())
                    .is_none_or(|a| d < a);
                if longer && !d.is_zero() {
                    p.overall_timeout = Some(Located::written(Timeout::after(d), at));
                    p.settings_from.push(place.clone());
                }
            }
        }
    }
}

/// How the via of a YARP edge begins.
pub const VIA: &str = "YARP";

/// The layer YARP is on every forwarded request: one attempt (it does not
/// retry), the activity timeout as the time that attempt may wait.
/// `written` is the activity timeout the cluster or request config sets,
/// with its span; else the default at `at`.
pub fn forwarding(name: String, at: Span, written: Option<(Timeout, Span)>) -> RetryPolicy {
    let mut p = RetryPolicy::new(
        System::Yarp,
        at,
        Located::default_at(
            Attempts {
                count: AttemptCount::Finite(1),
                written_as: "no retry (YARP forwards each request once)".into(),
            },
            at,
        ),
    );
    p.name = Some(name);
    p.retry_on = Located::default_at(RetryOn::Nothing, at);
    p.methods = Located::default_at(Methods::All, at);
    p.budget_site = BudgetSite::NotOffered;
    // The overall timeout, not a per-try one: with one attempt both bound
    // the same wait, but a per-try timeout is taken as time the callee may
    // spend by itself (the graph's worst time), and YARP spends none: it
    // waits for its destination, and cancels the forward when its own
    // caller gives up (`HttpForwarder.SendAsync` links
    // `context.RequestAborted` into its `ActivityCancellationTokenSource`).
    p.overall_timeout = Some(match written {
        Some((t, s)) => Located::written(t, s),
        None => Located::default_at(Timeout::after(DEFAULT_ACTIVITY_TIMEOUT), at),
    });
    p
}

/// The host a destination address names, as the C# reader's calls read
/// it: none for a relative or run-time one.
pub fn host(address: &str) -> Option<String> {
    let (_, rest) = address.split_once("://")?;
    let host = crate::model::calls::short_host(rest);
    (!host.is_empty() && !host.contains('{')).then_some(host)
}

/// Whether a destination address is this machine (`https://localhost:
/// 60220/`, `http://127.0.0.1:5000`): a developer's setting, no service
/// of the graph, as the other readers take loopback addresses
/// (`crate::extract::url_host`).
pub fn local(address: &str) -> bool {
    let Some((_, rest)) = address.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let bare = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// One edge per destination, each with the cluster's layer.
fn push(
    facts: &mut Facts,
    cluster: &str,
    dests: Vec<(String, Span)>,
    policy: RetryPolicy,
    from: &str,
) {
    let dests: Vec<(String, Span)> = dests.into_iter().filter(|(a, _)| !local(a)).collect();
    if dests.is_empty() {
        return;
    }
    let i = facts.policies.len();
    facts.policies.push(policy);
    for (address, at) in dests {
        let via = format!("{VIA} cluster `{cluster}` {from}");
        match host(&address) {
            Some(callee) => facts.edges.push(CallEdge {
                caller: None,
                callee,
                span: at,
                policies: vec![i],
                via,
                client: None,
                protocol: None,
            }),
            None => facts.unresolved.push(UnresolvedCall::new(at, address)),
        }
    }
}

pub mod config {
    //! The `appsettings*.json` reader.

    use super::*;
    use crate::extract::DocCtx;
    use crate::systems::dotnet::extract::find;
    use crate::yaml::{Entry, Yaml};

    /// Words that make a JSON file worth parsing for it.
    pub const NEEDLES: &[&str] = &["\"Destinations\""];

    /// How deep the search for the proxy's section goes.
    const MAX_DEPTH: usize = 8;

    /// Clusters a file may declare before the reader stops.
    const MAX_CLUSTERS: usize = 1_000;

    /// Whether a `.json` file other than `appsettings*.json` holds YARP's
    /// proxy section (`"Clusters"` with `"Destinations"`): a file the
    /// program adds to its configuration (`AddJsonFile("yarp.json")`),
    /// which .NET's JSON configuration provider reads with comments and
    /// trailing commas allowed (https://github.com/dotnet/runtime
    /// `src/libraries/Microsoft.Extensions.Configuration.Json/src/JsonConfigurationFileParser.cs`,
    /// commit 03312e5: `CommentHandling = JsonCommentHandling.Skip,
    /// AllowTrailingCommas = true`), so it is read as `appsettings*.json`
    /// are, not as strict JSON.
    pub fn is_proxy_json(name: &str, bytes: &[u8]) -> bool {
        name.ends_with(".json")
            && memchr::memmem::find(bytes, b"\"Clusters\"").is_some()
            && memchr::memmem::find(bytes, b"\"Destinations\"").is_some()
    }

    /// Read one JSON configuration document.
    pub fn extract_doc(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
        let name = ctx
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        // Any JSON file the configuration may load: `appsettings*.json`,
        // or one a program adds itself (`AddJsonFile("yarp.json")`,
        // abpframework/eShopOnAbp e075e82); the proxy's section is known
        // by its shape, not the file's name.
        if !name.ends_with(".json") {
            return false;
        }
        let from = if crate::systems::dotnet::extract::is_appsettings(&name) {
            "in appsettings".to_string()
        } else {
            format!("in `{name}`")
        };
        let mut found = false;
        let mut stack: Vec<(Yaml<'_>, String, usize)> = vec![(ctx.root(), String::new(), 0)];
        while let Some((node, path, depth)) = stack.pop() {
            if !node.is_map() || depth > MAX_DEPTH {
                continue;
            }
            let entries = node.entries();
            if let Some(c) = find(&entries, "Clusters").filter(|c| is_clusters(c.value)) {
                let routes = find(&entries, "Routes").map(|r| r.value);
                found |= clusters(c.value, routes, &path, &from, facts);
                continue;
            }
            for e in entries.iter().rev() {
                let p = if path.is_empty() {
                    e.key.to_string()
                } else {
                    format!("{path}:{}", e.key)
                };
                stack.push((e.value, p, depth + 1));
            }
        }
        found
    }

    /// A map of clusters: some cluster has `Destinations`.
    fn is_clusters(v: Yaml<'_>) -> bool {
        v.is_map()
            && v.entries().iter().any(|c| {
                c.value.is_map()
                    && find(&c.value.entries(), "Destinations").is_some_and(|d| d.value.is_map())
            })
    }

    /// The longest of the `Timeout`s of the routes to `cluster` (a
    /// route's request timeout, which cancels the forward), when every
    /// route to it sets one; `None` when one sets none, or only a
    /// `TimeoutPolicy` (a policy of the program's code, or `Disable`):
    /// then the activity timeout is the longest wait.
    ///
    /// dotnet/yarp bd11867: `RouteConfig.Timeout` / `TimeoutPolicy`
    /// (`src/ReverseProxy/Configuration/RouteConfig.cs`, "Setting both
    /// Timeout and TimeoutPolicy is an error") become the endpoint's
    /// `RequestTimeoutAttribute` (`Routing/ProxyEndpointFactory.cs`), which
    /// ASP.NET Core's request timeout middleware applies by cancelling
    /// `HttpContext.RequestAborted`, linked into the forward's
    /// cancellation; without `UseRequestTimeouts()` the route refuses
    /// every request (`Model/ProxyPipelineInitializerMiddleware.cs`).
    fn route_timeout(routes: Option<Yaml<'_>>, cluster: &str) -> Option<(Timeout, Span)> {
        let routes = routes.filter(|r| r.is_map())?;
        let mut longest: Option<(std::time::Duration, Span)> = None;
        let mut any = false;
        for r in routes.entries().into_iter().take(MAX_CLUSTERS) {
            let entries = r.value.entries();
            let to = find(&entries, "ClusterId").and_then(|c| c.value.as_str());
            if !to.is_some_and(|t| t.trim().eq_ignore_ascii_case(cluster)) {
                continue;
            }
            any = true;
            let t = find(&entries, "Timeout")?;
            let d = crate::duration::parse_dotnet_timespan(t.value.as_str()?.trim()).ok()?;
            if d.is_zero() {
                return None;
            }
            if longest.is_none_or(|(l, _)| d > l) {
                longest = Some((d, t.value.span()));
            }
        }
        any.then_some(longest)
            .flatten()
            .map(|(d, s)| (Timeout::after(d), s))
    }

    /// The one `TimeoutPolicy` every route to `cluster` names, with the
    /// span of one; not `Disable` (no request timeout) nor `Default` (the
    /// middleware's default policy: none unless the code sets one).
    fn route_policy(routes: Option<Yaml<'_>>, cluster: &str) -> Option<(String, Span)> {
        let routes = routes.filter(|r| r.is_map())?;
        let mut found: Option<(String, Span)> = None;
        for r in routes.entries().into_iter().take(MAX_CLUSTERS) {
            let entries = r.value.entries();
            let to = find(&entries, "ClusterId").and_then(|c| c.value.as_str());
            if !to.is_some_and(|t| t.trim().eq_ignore_ascii_case(cluster)) {
                continue;
            }
            let p = find(&entries, "TimeoutPolicy")?;
            let name = p.value.as_str()?.trim();
            if name.is_empty()
                || name.eq_ignore_ascii_case("disable")
                || name.eq_ignore_ascii_case("default")
                || found
                    .as_ref()
                    .is_some_and(|(f, _)| !f.eq_ignore_ascii_case(name))
            {
                return None;
            }
            found.get_or_insert((name.to_string(), p.value.span()));
        }
        found
    }

    fn clusters(
        v: Yaml<'_>,
        routes: Option<Yaml<'_>>,
        section: &str,
        from: &str,
        facts: &mut Facts,
    ) -> bool {
        let mut any = false;
        for c in v.entries().into_iter().take(MAX_CLUSTERS) {
            if !c.value.is_map() {
                continue;
            }
            let entries = c.value.entries();
            let Some(d) = find(&entries, "Destinations").filter(|d| d.value.is_map()) else {
                continue;
            };
            let dests: Vec<(String, Span)> = d
                .value
                .entries()
                .into_iter()
                .take(MAX_CLUSTERS)
                .filter_map(|dest| {
                    let a = find(&dest.value.entries(), "Address")?;
                    Some((a.value.as_str()?.trim().to_string(), a.value.span()))
                })
                .collect();
            let written = find(&entries, "HttpRequest")
                .filter(|r| r.value.is_map())
                .and_then(|r| find(&r.value.entries(), "ActivityTimeout"))
                .and_then(|t| activity_timeout(&t, facts));
            // The routes' request timeout, where it is the shorter wait.
            let activity = match &written {
                Some((t, _)) => t.finite(),
                None => Some(DEFAULT_ACTIVITY_TIMEOUT),
            };
            let written = match route_timeout(routes, c.key) {
                Some((t, at)) if activity.is_some_and(|a| t.finite().is_some_and(|r| r < a)) => {
                    Some((t, at))
                }
                _ => written,
            };
            let name = if section.is_empty() {
                format!("cluster `{}`", c.key)
            } else {
                format!("`{section}` cluster `{}`", c.key)
            };
            // A `TimeoutPolicy` the routes name: a policy of the program's
            // code, given to the cluster by the link step.
            if let Some((policy, at)) = route_policy(routes, c.key) {
                facts.timeouts.push(TimeoutSetting {
                    system: System::Yarp,
                    name: Some(name.clone()),
                    what: format!("{ROUTE_WHAT}{policy}"),
                    timeout: Located::written(Timeout::Unknown, at),
                });
            }
            any = true;
            push(
                facts,
                c.key,
                dests,
                forwarding(name, c.key_span, written),
                from,
            );
        }
        any
    }

    /// `HttpRequest:ActivityTimeout`, a `TimeSpan` (`TimeSpan.Parse`, as
    /// the configuration binder reads it).
    fn activity_timeout(e: &Entry<'_>, facts: &mut Facts) -> Option<(Timeout, Span)> {
        let t = e.value.as_str().map(str::trim).unwrap_or("");
        match crate::duration::parse_dotnet_timespan(t) {
            Ok(d) if d.is_zero() => {
                facts
                    .diagnostics
                    .push(crate::diag::invalid_setting::value(
                        e.value.span(),
                        e.key,
                        t,
                        "a zero activity timeout cancels every forwarded request at once (`CancelAfter(0)` in YARP's `ActivityCancellationTokenSource`)",
                    ));
                None
            }
            Ok(d) => Some((Timeout::after(d), e.value.span())),
            Err(why) => {
                facts.diagnostics.push(crate::diag::invalid_setting::value(
                    e.value.span(),
                    e.key,
                    t,
                    &why,
                ));
                Some((Timeout::Unknown, e.value.span()))
            }
        }
    }
}
