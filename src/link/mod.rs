//! Link steps that need more than one file: done once, after every file is
//! extracted and before the graph is built.

use crate::model::ScannedFile;
use crate::model::ServiceDecl;
use crate::source::Span;
use std::path::{Path, PathBuf};

mod bean_bound;
mod client_beans;
mod client_interfaces;
mod compose;
mod config_server;
mod configmap_env;
mod disk;
mod dotnet_sections;
mod env_defaults;
mod gateway_classes;
mod go_dials;
mod go_fields;
mod go_programs;
mod helm;
mod image_env;
mod ingress;
mod ingress_links;
mod java;
mod java_classes;
mod kustomize;
mod mounts;
mod nginx;
mod retry_limits;
mod spring_calls;
mod spring_env;
mod spring_profiles;
mod store_clients;
pub mod test_inputs;
mod test_resources;
mod tracing_off;
mod units;
mod values;
mod workload_names;

pub use client_interfaces::client_interfaces;
pub use compose::compose_env;
pub use configmap_env::configmap_env;
pub use disk::{Disk, keep_csharp};
pub use gateway_classes::gateway_classes;
pub use ingress::ingress_configmaps;
pub use java::{
    interval_functions, java_retry_annotations, resilience4j_breakers, resilience4j_instances,
};
pub use nginx::nginx_includes;
pub use retry_limits::retry_limits;
pub use spring_calls::spring_call_targets;
pub use units::{is_generic, unit_identities};

/// Every step that joins what one file says to what others say, in
/// order: the scan runs them after extraction, and the `link` fuzz target
/// runs the same list.
pub fn all(files: &mut [ScannedFile], roots: &[PathBuf]) {
    all_from(files, roots, None);
}

/// The scan's roots, each relative one joined to `cwd` (the command
/// line's working folder) where one is given.
pub(crate) fn joined_roots(roots: &[PathBuf], cwd: Option<&std::path::Path>) -> Vec<PathBuf> {
    roots
        .iter()
        .map(|r| match cwd {
            Some(c) if r.is_relative() => c.join(r),
            _ => r.clone(),
        })
        .collect()
}

/// [`all`] for files whose paths are shown relative to `cwd` (the command
/// line's working directory) while `roots` may be absolute: the build-unit
/// walk joins a shown path to `cwd` before it compares it with the roots
/// and reads the build files it passes.
pub fn all_from(files: &mut [ScannedFile], roots: &[PathBuf], cwd: Option<&std::path::Path>) {
    all_in(files, roots, cwd, Disk::direct());
}

/// [`all_from`], looking for the files no reader kept through `disk`
/// (what the walk saw, [`Disk::new`]).
pub fn all_in(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&std::path::Path>,
    disk: Disk<'_>,
) {
    // Helm templates are read again, rendered with their chart's values
    // (first: every later step reads the rendered facts).
    crate::timings::step("helm_charts", || helm::helm_charts(files));
    // Kustomize overlays: what their patches make of the resources they
    // patch (also before the steps that read the facts).
    crate::timings::step("kustomize_overlays", || {
        kustomize::kustomize_overlays(files, cwd, disk)
    });
    // Numbers a Python or Go file reads from a name another file gives:
    // the file read again with them (before every step that reads its
    // facts).
    crate::timings::step("values", || values::values(files, cwd, disk));
    // The scan's parses kept for those builds serve nothing else.
    for f in files.iter_mut() {
        f.facts.parse = Default::default();
    }
    // Java retry loops held open on project types of other files: the
    // types read where they are declared (local work, a round-robin pick).
    crate::timings::step("java_classes", || {
        java_classes::java_classes(files, roots, disk)
    });
    // Spring placeholders that refer to another `application*` file: the
    // file is read again (first, as later steps build on its facts).
    crate::timings::step("spring_placeholders", || {
        crate::systems::spring::placeholders::link(files)
    });
    // Which reading of a version-dependent setting holds, from the
    // library versions the build files tell.
    crate::timings::step("versions", || crate::versions::apply(files));
    // Rust retry macros are defined in one file and called in others.
    crate::timings::step("link_macros", || {
        crate::systems::rust::extract::link_macros(files)
    });
    // Workloads named by a label other workloads share, that Services
    // tell apart: each by its own name (before the steps that read the
    // workloads' calls and environment).
    crate::timings::step("workload_names", || workload_names::workload_names(files));
    // docker compose files with their `.env` and `env_file` variables.
    crate::timings::step("compose_env", || compose_env(files, cwd));
    // Kubernetes env values held by a ConfigMap of the same folder.
    crate::timings::step("configmap_env", || configmap_env(files, roots, cwd, disk));
    // Dapr app ids that run files give to programs of several folders
    // name none of them (before the units are joined to them).
    crate::timings::step("dapr_run", || crate::systems::dapr::run::link(files, cwd));
    crate::timings::step("unit_identities", || {
        unit_identities(files, roots, cwd, disk)
    });
    // The calls of a unit's test configuration are its tests'.
    crate::timings::step("test_resources", || test_resources::test_resources(files));
    // AWS SDK clients built in code: the retry mode and attempts their
    // workload's environment and shared config profiles set (needs the
    // units' identities).
    crate::timings::step("shared_config", || {
        crate::systems::aws::link::shared_config(files)
    });
    // Celery tasks: the redelivery timeout of the broker another file of
    // the program names.
    crate::timings::step("celery_brokers", || {
        crate::systems::python::link::celery_brokers(files)
    });
    // gRPC dials made in another package of a Go module with the
    // caller's options (before the embedded configs, which the options
    // may name).
    crate::timings::step("go_dials", || go_dials::go_dials(files, cwd, disk));
    // Dial targets read from a config struct another file of the Go
    // module fills from the environment.
    crate::timings::step("go_fields", || go_fields::go_fields(files, cwd, disk));
    // Service configs a Go program embeds from a JSON file, read with
    // grpc-go's rules and applied at the dials that use them.
    crate::timings::step("embedded_service_configs", || {
        crate::systems::grpc::link::embedded_service_configs(files)
    });
    // A C# project other projects reference runs in each of them (before
    // calls are given their callers: a library's call is its programs').
    crate::timings::step("shared_projects", || {
        crate::systems::csharp::link::shared_projects(files, cwd, &disk)
    });
    // A client bean's base URL read from a properties type's member: the
    // member's placeholder (before the placeholders are resolved).
    crate::timings::step("bound_beans", || bean_bound::bound_beans(files, cwd, disk));
    crate::timings::step("bean_properties", || client_beans::bean_properties(files));
    // Call targets written as Spring placeholders, from the build unit's
    // configuration (needs the units' identities for the callers).
    // nginx templates' `${NAME}` targets: the image's `ENV` as default.
    crate::timings::step("image_env", || {
        image_env::image_env(files, roots, cwd, disk)
    });
    crate::timings::step("spring_call_targets", || {
        spring_call_targets(files, roots, cwd, disk)
    });
    // C# addresses read from configuration: the program's appsettings
    // values (before the typed clients, whose registrations they may be).
    // (The workloads' environment entries a .NET program reads as
    // configuration are taken out first: they win over its settings.)
    let dotnet_env = crate::systems::csharp::env::Env::take(files);
    crate::timings::step("config_addresses::join", || {
        crate::systems::csharp::config_addresses::join(files, &dotnet_env)
    });
    // C# typed clients: calls in one file, base addresses in another of
    // the same project (or of one that references it).
    crate::timings::step("typed_clients", || {
        crate::systems::csharp::link::typed_clients(files)
    });
    // Connection strings read by name in C#: the servers the program's
    // appsettings give them.
    crate::timings::step("connections::join", || {
        crate::systems::csharp::connections::join(files, &dotnet_env)
    });
    // YARP routes naming a request timeout policy of the program's code.
    crate::timings::step("timeout_policies", || {
        crate::systems::csharp::yarp::timeout_policies(files)
    });
    // Azure Service Bus sends joined to the one program receiving.
    crate::timings::step("service_bus", || {
        crate::systems::csharp::link::service_bus(files, cwd, &disk)
    });
    // .NET handlers bound to an appsettings section in code.
    crate::timings::step("dotnet_sections", || {
        dotnet_sections::dotnet_sections(files)
    });
    // The standard handler's options configured by name elsewhere
    // (`ConfigureAll`, `Configure("{client}-standard", ..)`), after their
    // own sections are joined.
    crate::timings::step("options::join", || {
        crate::systems::csharp::options::join(files)
    });
    // Polly pipelines taken by key where they are run, from the
    // registration of the key in the program (before the narrowing, which
    // reads the methods of the calls they carry).
    crate::timings::step("pipelines::join", || {
        crate::systems::csharp::pipelines::join(files)
    });
    // Handlers that retry every method narrowed to their clients' calls'
    // methods (after the options, which may give a program its own).
    crate::timings::step("narrow", || crate::systems::csharp::link::narrow(files));
    // Gateways of a class another file declares.
    crate::timings::step("gateway_classes", || gateway_classes(files));
    // Ingress classes, Kong Services and Traefik middlewares another file
    // declares than the Ingress or route that names them.
    crate::timings::step("ingress_links", || ingress_links::ingress_links(files));
    crate::timings::step("nginx_includes", || nginx_includes(files, roots));
    crate::timings::step("ingress_configmaps", || ingress_configmaps(files));
    crate::timings::step("resilience4j_instances", || resilience4j_instances(files));
    crate::timings::step("resilience4j_breakers", || resilience4j_breakers(files));
    // Interval functions of Resilience4j retries declared in another file.
    crate::timings::step("interval_functions", || interval_functions(files));
    crate::timings::step("java_retry_annotations", || java_retry_annotations(files));
    // Calls through a client interface, in its file or one that builds
    // it, inside the retry annotations of its methods (after the
    // Resilience4j steps, whose values the uses copy).
    crate::timings::step("client_interfaces", || client_interfaces(files));
    // A client bean built in another file of the unit: the calls it
    // makes carry the retry of the file that injects it (after the
    // placeholders, so the bean's base URL is an edge).
    crate::timings::step("client_beans", || client_beans::client_beans(files));
    // Retry circuit breakers written for a host or cluster in another
    // document than the routes that send to it.
    crate::timings::step("retry_limits", || retry_limits(files));
}

/// The line of a span, as messages name a setting in another file.
fn place(f: &ScannedFile, span: Span) -> crate::model::SettingPlace {
    crate::model::SettingPlace {
        path: f.source.display_path(),
        line: f.source.line_col(span.start).line,
    }
}

/// Of `candidates` (file, policy), the one in the file nearest to `here`
/// (the longest common folder); `None` when none is, or two files are
/// equally near.
fn nearest(
    here: &Path,
    candidates: &[(usize, usize)],
    files: &[ScannedFile],
) -> Option<(usize, usize)> {
    let common = |b: &Path| {
        here.parent()
            .unwrap_or(here)
            .components()
            .zip(b.parent().unwrap_or(b).components())
            .take_while(|(x, y)| x == y)
            .count()
    };
    let mut best: Vec<(usize, usize, usize)> = Vec::new();
    for &(f, k) in candidates {
        let c = common(&files[f].source.path);
        match best.first() {
            Some(b) if b.0 > c => {}
            Some(b) if b.0 == c => best.push((c, f, k)),
            _ => best = vec![(c, f, k)],
        }
    }
    match best[..] {
        [(_, f, k)] => Some((f, k)),
        _ => None,
    }
}

/// Whether `path` lies under one of the scanned roots (lexically: no
/// symbolic link is followed to decide).
fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    let norm = |p: &Path| -> PathBuf {
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    };
    // Both absolute: roots are as the command line gave them (absolute
    // from the CLI, maybe relative from the library), paths maybe not.
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let p = norm(&abs(path));
    roots.iter().any(|r| {
        let r = norm(&abs(r));
        r.as_os_str().is_empty() || p.starts_with(&r)
    })
}

#[cfg(test)]
mod tests;
