//! Go call targets taken from a struct field that another file of the
//! module fills from the environment (issue 21). Gergenus/Commerce's
//! cart service dials `grpc.NewClient(cfg.GRPCProductServiceAddress,
//! ..)` in `cmd/main.go`, and `internal/config/config.go` returns
//! `Config{GRPCProductServiceAddress: os.Getenv(
//! "GRPC_PRODUCT_SERVICE_ADDRESS"), ..}`: the dial's target is `env
//! GRPC_PRODUCT_SERVICE_ADDRESS`, which the workload's environment then
//! resolves. The field is matched by name within the module (the files
//! under the nearest `go.mod`, as `go build` compiles them together); a
//! name filled from two different variables there is left as written.

use super::Disk;
use super::go_dials::module_of;
use crate::model::{GoFieldKind, ScannedFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Give each call target read from another file's field the variable
/// that fills it.
pub fn go_fields(files: &mut [ScannedFile], cwd: Option<&Path>, disk: Disk<'_>) {
    if !files.iter().any(|f| {
        f.facts
            .go_fields
            .iter()
            .any(|g| matches!(g.kind, GoFieldKind::Target { .. }))
    }) {
        return;
    }
    let abs = |p: &Path| -> PathBuf {
        crate::source::fold_dots(&match cwd {
            Some(c) if p.is_relative() => c.join(p),
            _ => p.to_path_buf(),
        })
    };
    let mut modules: HashMap<PathBuf, Option<(PathBuf, String)>> = HashMap::new();
    let mut root_of = |path: &Path| -> Option<PathBuf> {
        let dir = abs(path).parent()?.to_path_buf();
        module_of(&dir, &mut modules, disk).map(|(root, _)| root)
    };
    // (module root, field) -> the variables filling it.
    let mut fills: HashMap<(PathBuf, String), Vec<String>> = HashMap::new();
    for f in files.iter() {
        if !f
            .facts
            .go_fields
            .iter()
            .any(|g| matches!(g.kind, GoFieldKind::FromEnv { .. }))
        {
            continue;
        }
        let Some(root) = root_of(&f.source.path) else {
            continue;
        };
        for g in &f.facts.go_fields {
            if let GoFieldKind::FromEnv { env } = &g.kind {
                let v = fills.entry((root.clone(), g.field.clone())).or_default();
                if !v.contains(env) {
                    v.push(env.clone());
                }
            }
        }
    }
    if fills.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        let targets: Vec<(String, usize)> = f
            .facts
            .go_fields
            .iter()
            .filter_map(|g| match g.kind {
                GoFieldKind::Target { unresolved } => Some((g.field.clone(), unresolved)),
                GoFieldKind::FromEnv { .. } | GoFieldKind::Default { .. } => None,
            })
            .collect();
        if targets.is_empty() {
            continue;
        }
        let Some(root) = root_of(&f.source.path) else {
            continue;
        };
        for (field, u) in targets {
            let Some([env]) = fills.get(&(root.clone(), field)).map(Vec::as_slice) else {
                continue;
            };
            if let Some(call) = f.facts.unresolved.get_mut(u) {
                call.written = format!("env {env}");
            }
        }
    }
}
