//! Go call targets taken from a struct field that another file of the
//! module fills from the environment (issue 21). Gergenus/Commerce's
//! cart service dials `grpc.NewClient(cfg.GRPCProductServiceAddress,
//! ..)` in `cmd/main.go`, and `internal/config/config.go` returns
//! `Config{GRPCProductServiceAddress: os.Getenv(
//! "GRPC_PRODUCT_SERVICE_ADDRESS"), ..}`: the dial's target is `env
//! GRPC_PRODUCT_SERVICE_ADDRESS`, which the workload's environment then
//! resolves. The field is matched by name within the module (the files
//! under the nearest `go.mod`, as `go build` compiles them together).
//! A name filled from two different variables there (thangchung/
//! go-coffeeshop 22d33190: `URL` of `RabbitMQ` from `RABBITMQ_URL`, of
//! `ProductClient` from `PRODUCT_CLIENT_URL`) is told apart by the struct
//! the read goes through: in `cfg.ProductClient.URL` the field is
//! `ProductClient`'s, a type of that name (Go names an embedded field by
//! its type) or the type a struct declares the field `ProductClient`
//! with; when that does not settle one variable, the target is left as
//! written.

use super::Disk;
use super::go_dials::module_of;
use crate::model::{GoFieldKind, ScannedFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A variable filling a field, and the struct type the field belongs to
/// where known.
type Fill = (String, Option<String>);

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
    // (module root, field) -> the variables filling it, each with the
    // struct type it belongs to where known; the types fields are declared
    // with.
    let mut fills: HashMap<(PathBuf, String), Vec<Fill>> = HashMap::new();
    let mut types: HashMap<(PathBuf, String), Vec<String>> = HashMap::new();
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
            match &g.kind {
                GoFieldKind::FromEnv { env, owner } => {
                    let v = fills.entry((root.clone(), g.field.clone())).or_default();
                    let fill = (env.clone(), owner.clone());
                    if !v.contains(&fill) {
                        v.push(fill);
                    }
                }
                GoFieldKind::Typed { ty } => {
                    let v = types.entry((root.clone(), g.field.clone())).or_default();
                    if !v.contains(ty) {
                        v.push(ty.clone());
                    }
                }
                _ => {}
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
                GoFieldKind::FromEnv { .. }
                | GoFieldKind::Default { .. }
                | GoFieldKind::Typed { .. } => None,
            })
            .collect();
        if targets.is_empty() {
            continue;
        }
        let Some(root) = root_of(&f.source.path) else {
            continue;
        };
        for (field, u) in targets {
            let Some(call) = f.facts.unresolved.get_mut(u) else {
                continue;
            };
            let Some(all) = fills.get(&(root.clone(), field.clone())) else {
                continue;
            };
            let envs = |keep: &dyn Fn(&Option<String>) -> bool| {
                let mut v: Vec<&str> = all
                    .iter()
                    .filter(|(_, o)| keep(o))
                    .map(|(e, _)| e.as_str())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let mut found = envs(&|_| true);
            if found.len() > 1
                && let Some(through) = through(&call.written, &field)
            {
                let mut owners = vec![through.to_string()];
                if let Some(t) = types.get(&(root.clone(), through.to_string())) {
                    owners.extend(t.iter().cloned());
                }
                found = envs(&|o| o.as_ref().is_some_and(|o| owners.contains(o)));
            }
            if let [env] = found.as_slice() {
                call.written = format!("env {env}");
            }
        }
    }
}

/// The field a read of `field` goes through, in the target as written:
/// `ProductClient` of `cfg.ProductClient.URL`; none for `cfg.URL`'s
/// variable (`cfg` is no field).
fn through<'a>(written: &'a str, field: &str) -> Option<&'a str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let dotted = format!(".{field}");
    let at = written
        .match_indices(&dotted)
        .map(|(i, _)| i)
        .find(|&i| !written[i + dotted.len()..].starts_with(ident))?;
    let before = &written[..at];
    let start = before.rfind(|c: char| !ident(c)).map_or(0, |i| i + 1);
    // The name before it is itself read through a value (`x.Name`).
    (start > 0 && before[..start].ends_with('.')).then(|| &before[start..])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_field_a_read_goes_through() {
        assert_eq!(
            super::through("cfg.ProductClient.URL", "URL"),
            Some("ProductClient")
        );
        assert_eq!(
            super::through("s.cfg.Product.URLs.URL", "URL"),
            Some("URLs")
        );
        assert_eq!(super::through("cfg.URL", "URL"), None);
        assert_eq!(super::through("\"http://\" + fe.addr", "addr"), None);
    }
}
