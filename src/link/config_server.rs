//! What Spring Cloud Config servers of the scan serve, and to whom
//! (issue 17): the folders each serves from (native `search-locations`,
//! the native backend's defaults, a git `uri` that is a `file:` folder of
//! the scan), read by `link::spring_calls` as the configuration of the
//! clients, and the files there that belong to one application.

use super::spring_calls::{Locals, config_client, load, local, may_serve};
use super::*;
use crate::model::calls::IdentityKind;
use crate::systems::spring::placeholders;
use std::collections::BTreeSet;

/// A folder a config server serves files from, and whether it serves
/// `application*` files there too (not in its own resources folder,
/// whose `application*` files are the server's own configuration:
/// `NativeEnvironmentRepository.clean` drops the server's own property
/// sources).
pub(super) struct Served {
    pub(super) dir: PathBuf,
    pub(super) shared: bool,
}

/// The default search locations of the native backend, when
/// `search-locations` is not set (spring-cloud-config-server
/// `NativeEnvironmentRepository.DEFAULT_LOCATIONS`: `classpath:/`,
/// `classpath:/config/`, `file:./`, `file:./config/`; `optional:`-prefixed
/// in 3.x/4.x).
const NATIVE_DEFAULTS: &[&str] = &[
    "classpath:/",
    "classpath:/config/",
    "file:./",
    "file:./config/",
];

/// The folders config servers among `res_dirs` serve from, inside the
/// scan roots: the native backend's `search-locations` (any profile;
/// its defaults where the server runs the `native` profile without
/// them), and a git backend's `uri` when it is a `file:` path inside the
/// scan (with its `search-paths`); a remote repository is not read.
pub(super) fn server_locations(
    res_dirs: &BTreeSet<PathBuf>,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) -> Vec<Served> {
    locations_of(res_dirs, roots, cwd, disk, locals, true)
}

/// [`server_locations`]; `words`: a unit whose files cannot set a
/// server's locations ([`may_serve`]) is not parsed (`false` in a test
/// only, to show that this changes nothing).
fn locations_of(
    res_dirs: &BTreeSet<PathBuf>,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
    words: bool,
) -> Vec<Served> {
    let roots: Vec<PathBuf> = super::joined_roots(roots, cwd);
    let mut out: Vec<Served> = Vec::new();
    let mut push = |dir: PathBuf, shared: bool| {
        // `config-git/../config-repo` as `config-repo`, lexically.
        let mut clean = PathBuf::new();
        for c in dir.components() {
            match c {
                std::path::Component::ParentDir if clean.file_name().is_some() => {
                    clean.pop();
                }
                std::path::Component::CurDir => {}
                other => clean.push(other),
            }
        }
        let dir = clean;
        let exists = dir.to_string_lossy().contains("{application}") || disk.is_dir_followed(&dir);
        if exists && inside(&dir, &roots) && !out.iter().any(|s| s.dir == dir) {
            out.push(Served { dir, shared });
        }
    };
    for res in res_dirs {
        if words && !may_serve(res, disk) {
            continue;
        }
        let docs = local(res, cwd, disk, locals);
        let get = |key: &str| -> Vec<String> {
            docs.iter()
                .filter_map(|d| d.expand(&format!("${{{key}}}")))
                .collect()
        };
        let module = res.ancestors().nth(3).map(Path::to_path_buf);
        // A `file:` path as the server, started in its module or at the
        // repository's root, finds it.
        let file_dirs = |rel: &str| -> Vec<PathBuf> {
            let rel = rel.trim_start_matches("//");
            // `${user.home}/config-repo`: outside the scan.
            if rel.replace("{application}", "").contains(['$', '{']) {
                return Vec::new();
            }
            if Path::new(rel).is_absolute() {
                return vec![PathBuf::from(rel)];
            }
            module
                .iter()
                .chain(roots.iter())
                .map(|b| b.join(rel))
                .collect()
        };
        let mut entry = |e: &str, defaults: bool| {
            let e = e.trim();
            let e = e.strip_prefix("optional:").unwrap_or(e);
            if let Some(rel) = e.strip_prefix("classpath:") {
                let rel = rel.trim_start_matches('/');
                if !rel.split('/').any(|s| s == "..") {
                    // The server's own folder: its `application*` are its own.
                    push(
                        res.join(rel),
                        !(defaults || rel.trim_end_matches('/').is_empty()),
                    );
                }
            } else if let Some(rel) = e.strip_prefix("file:") {
                for d in file_dirs(rel) {
                    let own = defaults && module.as_ref().is_some_and(|m| d.starts_with(m));
                    push(d, !own);
                }
            }
        };
        let written = get("spring.cloud.config.server.native.search-locations");
        for v in &written {
            for e in v.split(',') {
                entry(e, false);
            }
        }
        let native = get("spring.profiles.active")
            .iter()
            .any(|v| v.split(',').any(|p| p.trim() == "native"));
        if written.is_empty() && native {
            for e in NATIVE_DEFAULTS {
                entry(e, true);
            }
        }
        for uri in get("spring.cloud.config.server.git.uri") {
            let Some(rel) = uri.trim().strip_prefix("file:") else {
                continue;
            };
            let paths = get("spring.cloud.config.server.git.search-paths");
            for base in file_dirs(rel) {
                push(base.clone(), true);
                for p in paths.iter().flat_map(|v| v.split(',')) {
                    let p = p.trim().trim_matches('/');
                    if !p.is_empty() && !p.split('/').any(|s| s == "..") {
                        push(base.join(p), true);
                    }
                }
            }
        }
    }
    out
}

/// The files config servers serve, given the services that read them:
/// an application's own files ([`app_files`]) and the `application*`
/// files served to every client ([`shared_files`]).
pub(super) fn served_files(
    files: &mut [ScannedFile],
    res_dirs: &BTreeSet<PathBuf>,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    locations: &mut Option<Vec<Served>>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) {
    app_files(files, res_dirs, roots, cwd, locations, disk, locals);
    shared_files(files, res_dirs, roots, cwd, locations, disk, locals);
}

/// A file a config server serves to one application
/// (`config/gateway-service.yml` in a native backend's location) is that
/// application's configuration: its routes, retries and calls are the
/// application's, not the server's. It is named `<name>` or
/// `<name>-<profile>` for a program the scan declares (a
/// `spring.application.name` or build unit, the longest that fits); a
/// file that fits none, or `application*` (served to every client),
/// keeps its own unit.
fn app_files(
    files: &mut [ScannedFile],
    res_dirs: &BTreeSet<PathBuf>,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    locations: &mut Option<Vec<Served>>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) {
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    // Only a configuration file below a resources folder's subfolder, or
    // outside any unit, can be served from a location of its own.
    let candidate = |f: &ScannedFile| {
        !f.syntax.is_some_and(crate::model::Syntax::is_source)
            && f.source.path.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                !(n.starts_with("application") || n.starts_with("bootstrap"))
            })
    };
    if !files.iter().any(candidate) {
        return;
    }
    let served =
        locations.get_or_insert_with(|| server_locations(res_dirs, roots, cwd, disk, locals));
    if served.is_empty() {
        return;
    }
    let names: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.facts.services.iter())
        .filter(|s| matches!(s.kind, IdentityKind::AppName | IdentityKind::BuildUnit))
        .map(|s| s.name.clone())
        .collect();
    for f in files.iter_mut() {
        if !candidate(f) {
            continue;
        }
        let path = absolute(&f.source.path);
        if !served
            .iter()
            .any(|s| path.parent() == Some(s.dir.as_path()))
        {
            continue;
        }
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().to_string()) else {
            continue;
        };
        let Some(name) = names
            .iter()
            .filter(|n| {
                stem == **n
                    || stem
                        .strip_prefix(n.as_str())
                        .is_some_and(|r| r.starts_with('-'))
            })
            .max_by_key(|n| n.len())
        else {
            continue;
        };
        let span = crate::source::Span::new(0, 0);
        f.facts
            .services
            .retain(|s| s.kind != IdentityKind::BuildUnit);
        f.facts.services.push(ServiceDecl::new(
            name.clone(),
            span,
            IdentityKind::AppName,
            "served by a config server as its configuration",
            Vec::new(),
        ));
    }
}

/// A shared `application*` file of a location a config server serves to
/// every client (`shared/application.yml` of a native backend): each
/// config client of the scan reads it (`NativeEnvironmentRepository`
/// adds `application*` to every application's property sources), so its
/// retry settings and calls are each client's, not the server's unit's.
/// The clients are the units whose own configuration makes them config
/// clients (`spring.cloud.config.uri`, `spring.config.import` of
/// `configserver:`), by `spring.application.name`.
fn shared_files(
    files: &mut [ScannedFile],
    res_dirs: &BTreeSet<PathBuf>,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    locations: &mut Option<Vec<Served>>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) {
    let named = |f: &ScannedFile| {
        f.source
            .path
            .file_name()
            .is_some_and(|n| placeholders::file_profile(&n.to_string_lossy()).is_some())
    };
    // A unit's own `application*` files are never a location's shared
    // ones: only files elsewhere are looked at.
    let own = |f: &ScannedFile| {
        let mut up = f.source.path.ancestors().skip(1).map(|a| a.file_name());
        match (up.next().flatten(), up.next().flatten()) {
            (Some(p), _) if p == "resources" => true,
            (Some(p), Some(g)) => p == "config" && g == "resources",
            _ => false,
        }
    };
    if !files.iter().any(|f| named(f) && !own(f)) {
        return;
    }
    let served: &[Served] =
        locations.get_or_insert_with(|| server_locations(res_dirs, roots, cwd, disk, locals));
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    let shared = |f: &ScannedFile| {
        let path = absolute(&f.source.path);
        named(f)
            && served.iter().any(|s| {
                s.shared
                    && !s.dir.to_string_lossy().contains("{application}")
                    && path.parent() == Some(s.dir.as_path())
            })
    };
    if !files.iter().any(shared) {
        return;
    }
    let clients: BTreeSet<String> = res_dirs
        .iter()
        .filter_map(|r| config_client(&load(r, cwd, &[], disk, locals)))
        .collect();
    for f in files.iter_mut() {
        if !shared(f) {
            continue;
        }
        for name in &clients {
            f.facts.services.push(ServiceDecl::new(
                name.clone(),
                crate::source::Span::new(0, 0),
                IdentityKind::ConfigClient,
                "served by a config server to every client",
                Vec::new(),
            ));
        }
    }
}

#[cfg(test)]
#[path = "config_server_tests.rs"]
mod tests;
