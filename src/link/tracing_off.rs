//! Span exporters a program's own configuration turns off (issue 17):
//! `management.tracing.enabled=false` in its `application*` file
//! (sivaprasadreddy/spring-boot-microservices-course 0e759ec writes it in
//! every service) while its compose service sets
//! `MANAGEMENT_ZIPKIN_TRACING_ENDPOINT`: Spring Boot builds no Zipkin
//! sender, so the endpoint is no call (`extract::tracing`, whose switches
//! the workload's environment sets are read there, one file at a time).
//!
//! The unit's own documents of the default profile are read (the highest
//! precedence first, `spring_calls::local`); an environment that turns
//! tracing on or off itself wins (it is above every `application*` file),
//! and its edges say so (`extract::tracing::ENV_SWITCHED`).

use super::spring_calls::{Locals, caller, first_value, local, resources_of};
use super::*;
use crate::extract::tracing::{self, ENV_SWITCHED, EXPORTERS};
use crate::extract::workload::env_name_of;
use std::collections::{BTreeSet, HashMap};

/// The switches' keys, as an `application*` file writes them.
const KEYS: &[&str] = &[
    "management.tracing.enabled",
    "management.zipkin.tracing.export.enabled",
    "management.otlp.tracing.export.enabled",
];

/// The exporter an edge is the endpoint of: an environment entry's, or
/// an `application*` key's (`extract::tracing::from_props`).
fn exporter(e: &crate::model::CallEdge) -> Option<&'static str> {
    tracing::exporter_of_via(&e.via)
}

/// The tracing switches each compose service's `environment` and
/// `env_file` entries set (as written: a value `.env` would give is not
/// looked up here), by service name: above every `application*` file of
/// the program it runs.
fn compose_switches(files: &[ScannedFile]) -> HashMap<String, Vec<tracing::Switch>> {
    let mut out: HashMap<String, Vec<tracing::Switch>> = HashMap::new();
    for f in files {
        let name = f
            .source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = &f.source.text;
        if !text.contains("TRACING")
            || !crate::extract::workload::is_compose_file(&name, text.as_bytes())
        {
            continue;
        }
        let file = crate::yaml::parse(text);
        for d in &file.documents {
            let Some(services) = file.root(d).get("services") else {
                continue;
            };
            for sv in services.entries() {
                let sw = tracing::compose_switches(sv.value, None, &|v| v.to_string());
                if !sw.is_empty() {
                    out.entry(sv.key.to_string()).or_default().extend(sw);
                }
            }
        }
    }
    out
}

pub(super) fn drop_exporters(
    files: &mut [ScannedFile],
    res_dirs: &BTreeSet<PathBuf>,
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) {
    if !files
        .iter()
        .any(|f| f.facts.edges.iter().any(|e| exporter(e).is_some()))
    {
        return;
    }
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    // (program name, exporter) turned off.
    let mut off: BTreeSet<(String, &'static str)> = BTreeSet::new();
    for res in res_dirs {
        let docs = local(res, cwd, disk, locals);
        let switches: Vec<tracing::Switch> = KEYS
            .iter()
            .filter_map(|k| tracing::switch(k, &first_value(&docs, k, true)?))
            .collect();
        let unbuilt: Vec<&'static str> = EXPORTERS
            .iter()
            .copied()
            .filter(|x| !tracing::built(x, &switches))
            .collect();
        if unbuilt.is_empty() {
            continue;
        }
        for f in files.iter() {
            if resources_of(&absolute(&f.source.path)).as_ref() != Some(res) {
                continue;
            }
            for name in caller(f)
                .into_iter()
                .chain(f.facts.services.iter().map(|s| s.name.clone()))
            {
                for x in &unbuilt {
                    off.insert((name.clone(), x));
                }
            }
        }
    }
    let env = compose_switches(files);
    if off.is_empty() && env.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        f.facts.edges.retain(|e| {
            let (Some(c), Some(x)) = (&e.caller, exporter(e)) else {
                return true;
            };
            // An `application*` key's endpoint under a workload whose
            // environment switches tracing: the environment decides.
            if env_name_of(&e.via).is_none()
                && let Some(sw) = env.get(c)
                && sw.iter().any(|s| s.0.is_none_or(|y| y == x))
            {
                return tracing::built(x, sw);
            }
            e.via.ends_with(ENV_SWITCHED) || !off.contains(&(c.clone(), x))
        });
    }
}
