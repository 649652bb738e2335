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
use std::collections::BTreeSet;

/// The switches' keys, as an `application*` file writes them.
const KEYS: &[&str] = &[
    "management.tracing.enabled",
    "management.zipkin.tracing.export.enabled",
    "management.otlp.tracing.export.enabled",
];

/// The exporter an environment edge's variable is the endpoint of.
fn exporter(e: &crate::model::CallEdge) -> Option<&'static str> {
    env_name_of(&e.via).and_then(tracing::exporter_of)
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
    if off.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        f.facts.edges.retain(|e| {
            let (Some(c), Some(x)) = (&e.caller, exporter(e)) else {
                return true;
            };
            e.via.ends_with(ENV_SWITCHED) || !off.contains(&(c.clone(), x))
        });
    }
}
