//! Service configs a Go program embeds (`//go:embed retry_policy.json`
//! above `var retryPolicy string`, given to
//! `grpc.WithDefaultServiceConfig(retryPolicy)`): the JSON file is read
//! again with grpc-go's rules, as grpc-go is the only reader of an
//! embedded file (case-insensitive keys, `".01s"` durations:
//! [`super::extract::as_grpc_go`]), and its policies apply at the option,
//! on the dials it configures, as uses of the file's policies (judged
//! where they are written, `RetryPolicy::use_of`).

use crate::model::*;
use std::path::{Component, Path, PathBuf};

/// Join every embedded service config to the file it embeds.
pub fn embedded_service_configs(files: &mut [ScannedFile]) {
    let uses: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, f)| (0..f.facts.embedded_configs.len()).map(move |k| (i, k)))
        .collect();
    // Each embedded file is read again once.
    let mut reread: Vec<usize> = Vec::new();
    for (gi, k) in uses {
        let e = files[gi].facts.embedded_configs[k].clone();
        let target = normal(
            &files[gi]
                .source
                .path
                .parent()
                .unwrap_or(Path::new(""))
                .join(&e.path),
        );
        let Some(j) = files.iter().position(|f| normal(&f.source.path) == target) else {
            continue;
        };
        if j == gi {
            continue;
        }
        if !reread.contains(&j) {
            reread.push(j);
            let Some(syntax) = files[j].syntax else {
                continue;
            };
            let f = &files[j];
            let facts = super::extract::as_grpc_go(|| {
                crate::systems::extract(&f.source.path, &f.source.text, syntax)
            });
            files[j].facts = facts;
        }
        let shown = files[j].source.display_path();
        let added: Vec<RetryPolicy> = files[j]
            .facts
            .policies
            .iter()
            .filter(|p| p.system == System::Grpc)
            .map(|p| {
                let mut r = p.rebased(e.span);
                r.use_of = Some(format!("//go:embed {}", e.path));
                r.settings_from.push(SettingPlace {
                    path: shown.clone(),
                    line: files[j].source.line_col(p.span.start).line,
                });
                r
            })
            .collect();
        let g = &mut files[gi].facts;
        for p in added {
            let i = g.policies.len();
            g.policies.push(p);
            for &edge in &e.edges {
                if let Some(c) = g.edges.get_mut(edge) {
                    c.policies.push(i);
                }
            }
            for &u in &e.unresolved {
                if let Some(c) = g.unresolved.get_mut(u) {
                    c.policies.push(i);
                }
            }
        }
    }
}

/// A path with `.` and `..` taken out lexically.
fn normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
