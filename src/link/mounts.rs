//! Configuration files a server of its own reads (nginx, Envoy, Varnish:
//! `SystemSpec::own_process`) and files a compose service bind-mounts:
//! whose calls they hold (issue 17). A Go module at a repository's root
//! does not run the `nginx.conf` of `examples/ha/config/`: the compose
//! service that mounts it as `/etc/nginx/nginx.conf` does.

use super::*;
use crate::model::ServiceDecl;
use crate::model::calls::IdentityKind;
use std::collections::{BTreeMap, BTreeSet};

/// How a file mounted into a compose service is known to be its.
const MOUNTED: &str = "docker-compose bind mount";

/// Build units named by a language's own manifest or layout: a program
/// built from source there, which never runs a server's configuration
/// file (a folder's Dockerfile or a `package.json` front end may: an
/// image that serves its assets through nginx).
const SOURCE_UNITS: &[&str] = &[
    "Cargo package",
    "pom.xml artifactId",
    "go.mod module",
    "Go main package under cmd/",
    "folder of a Go main package cmd/",
    "*.csproj",
    "Python project name",
    "Gradle project folder",
];

/// Whether every retry setting of the file belongs to a server that reads
/// the file itself ([`crate::systems::SystemSpec::own_process`]).
pub(super) fn own_process_file(f: &ScannedFile) -> bool {
    !f.facts.policies.is_empty() && f.facts.policies.iter().all(|p| p.system.spec().own_process)
}

/// Whether a build unit's declaration is a program built from source
/// (see [`SOURCE_UNITS`]).
pub(super) fn source_unit(decl: &ServiceDecl) -> bool {
    decl.kind == IdentityKind::BuildUnit && SOURCE_UNITS.contains(&decl.source.as_str())
}

/// Give a file a compose service bind-mounts to that service: the file
/// itself mounted (`./config/nginx.conf:/etc/nginx/nginx.conf`) by one
/// service, or, for a server's own configuration file, the nearest
/// folder above it that one service alone mounts
/// (`./nginx/conf.d:/etc/nginx/conf.d`). A file that says its own program
/// (a workload, an application name) keeps it; a build unit's
/// declaration gives way. Mounts by several services (three replicas of
/// one image sharing `./config`) say nothing.
pub(super) fn compose_mounts(files: &mut [ScannedFile], cwd: Option<&Path>) {
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    let mut mounted: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter() {
        let Some(dir) = absolute(&f.source.path).parent().map(Path::to_path_buf) else {
            continue;
        };
        for s in &f.facts.services {
            if s.kind != IdentityKind::Compose {
                continue;
            }
            for m in &s.placement.mounts {
                if let Some(at) = super::units::normalise(&dir.join(m)) {
                    mounted.entry(at).or_default().insert(s.name.clone());
                }
            }
        }
    }
    if mounted.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        if f.facts.edges.is_empty() && f.facts.policies.is_empty() {
            continue;
        }
        let Some(path) = super::units::normalise(&absolute(&f.source.path)) else {
            continue;
        };
        let by = mounted.get(&path).or_else(|| {
            own_process_file(f)
                .then(|| path.ancestors().skip(1).find_map(|a| mounted.get(a)))
                .flatten()
        });
        let Some(by) = by.filter(|b| b.len() == 1) else {
            continue;
        };
        let says_own = f
            .facts
            .services
            .iter()
            .any(|s| matches!(s.kind, IdentityKind::Workload | IdentityKind::AppName));
        if says_own {
            continue;
        }
        let Some(name) = by.iter().next() else {
            continue;
        };
        f.facts
            .services
            .retain(|s| s.kind != IdentityKind::BuildUnit);
        f.facts.services.push(ServiceDecl::new(
            name.clone(),
            crate::source::Span::default(),
            IdentityKind::AppName,
            MOUNTED,
            Vec::new(),
        ));
    }
}
