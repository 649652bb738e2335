//! A data-store setting is a call only from a program that has a client
//! of that store (issue 17): Spring Boot binds `spring.rabbitmq.host` for
//! every program that reads the file, but only one with a RabbitMQ client
//! on its classpath (`spring-boot-starter-amqp`, Spring Cloud Bus or
//! Stream's Rabbit binder) connects. piggymetrics' config server serves
//! `spring.rabbitmq.host: rabbitmq` to every client in
//! `shared/application.yml`; its registry, gateway, monitoring and auth
//! service have no AMQP client and make no such call.
//!
//! The program's build files are read: the nearest `pom.xml`,
//! `build.gradle` or `build.gradle.kts` above the file (for a shared file
//! a config server serves, each client's), and the build files above that
//! one (a parent's dependencies are inherited). A store whose words none
//! of them mention gives no call; where no build file is found the call
//! is kept (the program is not in the scan).

use super::*;
use crate::extract::stores;
use crate::model::calls::{IdentityKind, Protocol};

/// Build files, in the order they are looked for in a folder.
const BUILD_FILES: &[&str] = &["pom.xml", "build.gradle", "build.gradle.kts"];

/// How many folders are walked up from a file, and above its build file.
const MAX_UP: usize = 12;

/// The largest build file read.
const MAX_BUILD: u64 = 1 << 20;

/// Words a build file names a client of the store by (artifacts of the
/// drivers and of Spring's starters for them), lower case.
fn words(p: Protocol) -> &'static [&'static str] {
    match p {
        Protocol::Mongo => &["mongo"],
        Protocol::Sql => &[
            "jdbc",
            "jpa",
            "r2dbc",
            "mysql",
            "postgres",
            "mariadb",
            "mssql",
            "sqlserver",
            "ojdbc",
            "oracle",
            "h2database",
            "hsqldb",
            "derby",
            "flyway",
            "liquibase",
            "mybatis",
            "hibernate",
            "jooq",
            "cockroach",
        ],
        Protocol::Redis => &["redis", "lettuce", "jedis", "redisson"],
        Protocol::Amqp => &["amqp", "rabbit"],
        Protocol::Kafka => &["kafka"],
        // `spring-boot-starter-mail`, `jakarta.mail`, `javax.mail`.
        Protocol::Smtp => &["mail"],
        _ => &[],
    }
}

/// The store an edge from a Spring configuration key is a call to (its
/// `via` is the key, as [`stores::from_props`] writes it).
fn store_of(e: &crate::model::CallEdge) -> Option<Protocol> {
    let key = e.via.strip_prefix('`')?.strip_suffix('`')?;
    let (p, _) = stores::of_key(key)?;
    (e.protocol == Some(p)).then_some(p)
}

/// The lower-cased texts of the build files of the program in `dir`:
/// the nearest above it, then those above that one. Empty: none found.
fn builds(dir: &Path, roots: &[PathBuf], disk: super::Disk<'_>) -> Vec<String> {
    let inside = |d: &Path| roots.is_empty() || roots.iter().any(|r| d.starts_with(r));
    let mut out = Vec::new();
    for d in dir.ancestors().take(MAX_UP * 2) {
        if !inside(d) {
            break;
        }
        for name in BUILD_FILES {
            if let Some(t) = disk.read(&d.join(name), MAX_BUILD) {
                out.push(t.to_ascii_lowercase());
            }
        }
    }
    out
}

/// Whether a program with these build files has a client of `p`.
fn has_client(builds: &[String], p: Protocol) -> bool {
    builds.is_empty()
        || builds
            .iter()
            .any(|t| words(p).iter().any(|w| t.contains(w)))
}

/// Drop the store calls of Spring configuration files whose program has
/// no client of the store; a shared file a config server serves gives
/// each of its clients (`clients`: name and resources folder) the calls
/// that client's build has a client for.
pub(super) fn store_clients(
    files: &mut [ScannedFile],
    clients: &[(String, PathBuf)],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
) {
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    let roots: Vec<PathBuf> = roots.iter().map(|r| absolute(r)).collect();
    let mut cache: std::collections::HashMap<PathBuf, Vec<String>> = Default::default();
    let mut of_dir = |d: &Path| -> Vec<String> {
        cache
            .entry(d.to_path_buf())
            .or_insert_with(|| builds(d, &roots, disk))
            .clone()
    };
    for f in files.iter_mut() {
        if !f.facts.edges.iter().any(|e| store_of(e).is_some()) {
            continue;
        }
        let shared = f
            .facts
            .services
            .iter()
            .any(|s| s.kind == IdentityKind::ConfigClient);
        let edges = std::mem::take(&mut f.facts.edges);
        let mut kept = Vec::with_capacity(edges.len());
        // An embedded file (`configmap.yaml#embedded/application.properties`)
        // is in the manifest's folder.
        let shown = f.source.path.to_string_lossy();
        let real = shown.split("#embedded/").next().unwrap_or(&shown);
        let dir = absolute(Path::new(real))
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // A file a config server serves to one application
        // (`shared/account-service.yml`) is that client's.
        let dir = f
            .facts
            .services
            .iter()
            .filter(|s| s.kind == IdentityKind::AppName)
            .find_map(|s| clients.iter().find(|(n, _)| *n == s.name))
            .filter(|(_, res)| !dir.starts_with(res))
            .map_or(dir, |(_, res)| res.clone());
        for e in edges {
            let Some(p) = store_of(&e) else {
                kept.push(e);
                continue;
            };
            if !shared || e.caller.is_some() {
                if has_client(&of_dir(&dir), p) {
                    kept.push(e);
                }
                continue;
            }
            for (name, res) in clients {
                if has_client(&of_dir(res), p) {
                    let mut c = e.clone();
                    c.caller = Some(name.clone());
                    kept.push(c);
                }
            }
        }
        f.facts.edges = kept;
    }
}

/// The via of a config client's call read from its `application*` or
/// `bootstrap*` file (`spring.cloud.config.uri`, `spring.config.import`).
const CONFIG_VIA: &str = crate::systems::spring::boot_retry::CONFIG_CLIENT_VIA;
/// The keys, relaxed, whose environment variables set the config
/// client's server (`SPRING_CLOUD_CONFIG_URI`, `SPRING_CONFIG_IMPORT`).
const CONFIG_KEYS: &[&str] = &["springcloudconfiguri", "springconfigimport"];

/// Drop the store calls (and config client calls without retry) of
/// `application*` keys that a workload's or compose service's
/// environment sets for the same program
/// (`SPRING_DATA_MONGODB_HOST` over `spring.data.mongodb.host`): the OS
/// environment is above every `application*` file in Spring Boot's
/// order ("Externalized Configuration", spring-boot 3.x reference;
/// `SystemEnvironmentPropertySource` before the config data files), so
/// the file's value is not what the deployed program connects to. The
/// program is matched by the names its file's identities give (its
/// build unit, `spring.application.name`) or the call's caller, as the
/// placeholder step matches a workload's environment (`spring_env`).
pub(super) fn env_overrides(files: &mut [ScannedFile]) {
    let mut set: std::collections::HashSet<(String, String)> = Default::default();
    for f in files.iter() {
        for e in &f.facts.edges {
            let (Some(caller), Some(env)) =
                (&e.caller, crate::extract::workload::env_name_of(&e.via))
            else {
                continue;
            };
            let name = crate::keys::relaxed_name(env);
            if stores::of_key(env).is_some() {
                set.insert((caller.clone(), name));
            } else if CONFIG_KEYS.contains(&name.as_str()) {
                // Any of them sets where the config client goes.
                set.insert((caller.clone(), CONFIG_VIA.to_string()));
            }
        }
    }
    if set.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        // A config client's call with its retry stays (the entry's own
        // call has no policy to carry it): left as before.
        let from_file = |e: &crate::model::CallEdge| {
            store_of(e).is_some() || (e.via == CONFIG_VIA && e.policies.is_empty())
        };
        if !f.facts.edges.iter().any(from_file) {
            continue;
        }
        let names: Vec<String> = f.facts.services.iter().map(|s| s.name.clone()).collect();
        f.facts.edges.retain(|e| {
            if !from_file(e) {
                return true;
            }
            let key = if e.via == CONFIG_VIA {
                CONFIG_VIA.to_string()
            } else {
                crate::keys::relaxed_name(e.via.trim_matches('`'))
            };
            !e.caller
                .iter()
                .chain(names.iter())
                .any(|n| set.contains(&(n.clone(), key.clone())))
        });
    }
}
