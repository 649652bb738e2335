//! gRPC dials made in another package of a Go module with the caller's
//! options (issue 21; the Go reader records both halves,
//! `systems::go::extract::through`). NeptuneG/go-back's payment service
//! builds `opts := []grpc.DialOption{.., grpc.WithDefaultServiceConfig(
//! retryPolicy)}` and calls `liveSvc.NewClient(ctx, opts...)`, imported
//! from `github.com/NeptuneG/go-back/internal/live`, whose `NewClient`
//! dials with `dialOptions...`. The import path is followed as `go build`
//! does within a module: the nearest `go.mod` above the caller names the
//! module path, and a path below it is that folder under the `go.mod`'s
//! (https://go.dev/ref/mod#go-mod-file-module). The caller's file then
//! holds the dial's target (an edge or the unresolved target, so the
//! graph puts it under the caller's unit) with the caller's policies:
//! the retries around the call, the service config its options give,
//! and the one the dial's own options give (a use of it, judged where it
//! is written), unless either side turns retries off
//! (`grpc.WithDisableRetry()` wins over any service config, grpc-go
//! `dialoptions.go`).

use super::Disk;
use crate::model::{CallEdge, GoDialKind, ScannedFile, SettingPlace, UnresolvedCall};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Folders walked up from a file to its `go.mod`.
const MAX_UP: usize = 32;
/// Bytes of a `go.mod` read for its module line.
const MAX_GO_MOD: u64 = 1 << 20;

/// Join every call given dial options to the dials of the function it
/// calls in another package of the module.
pub fn go_dials(files: &mut [ScannedFile], cwd: Option<&Path>, disk: Disk<'_>) {
    if !files.iter().any(|f| {
        f.facts
            .go_dials_through
            .iter()
            .any(|d| matches!(d.kind, GoDialKind::Passes { .. }))
    }) {
        return;
    }
    let abs = |p: &Path| -> PathBuf {
        crate::source::fold_dots(&match cwd {
            Some(c) if p.is_relative() => c.join(p),
            _ => p.to_path_buf(),
        })
    };
    // The dials, by (folder, function): (file, half).
    let mut dials: HashMap<(PathBuf, String), Vec<(usize, usize)>> = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for (k, d) in f.facts.go_dials_through.iter().enumerate() {
            if matches!(d.kind, GoDialKind::Dials { .. }) {
                let dir = abs(&f.source.path).parent().map(Path::to_path_buf);
                dials
                    .entry((dir.unwrap_or_default(), d.func.clone()))
                    .or_default()
                    .push((i, k));
            }
        }
    }
    let mut modules: HashMap<PathBuf, Option<(PathBuf, String)>> = HashMap::new();
    for i in 0..files.len() {
        let passes: Vec<usize> = (0..files[i].facts.go_dials_through.len())
            .filter(|&k| {
                matches!(
                    files[i].facts.go_dials_through[k].kind,
                    GoDialKind::Passes { .. }
                )
            })
            .collect();
        if passes.is_empty() {
            continue;
        }
        let Some(dir) = abs(&files[i].source.path).parent().map(Path::to_path_buf) else {
            continue;
        };
        let Some((root, module)) = module_of(&dir, &mut modules, disk) else {
            continue;
        };
        for k in passes {
            let pass = files[i].facts.go_dials_through[k].clone();
            let GoDialKind::Passes {
                import,
                around,
                options,
                embeds,
                retries_disabled,
            } = pass.kind
            else {
                continue;
            };
            let Some(pkg_dir) = package_dir(&root, &module, &import) else {
                continue;
            };
            let Some(targets) = dials.get(&(pkg_dir, pass.func.clone())) else {
                continue;
            };
            for &(j, dk) in targets {
                let GoDialKind::Dials {
                    edge,
                    unresolved,
                    policies,
                    retries_disabled: off_there,
                } = files[j].facts.go_dials_through[dk].kind.clone()
                else {
                    continue;
                };
                let off = retries_disabled || off_there;
                let dial_at = SettingPlace {
                    path: files[j].source.display_path(),
                    line: files[j]
                        .source
                        .line_col(files[j].facts.go_dials_through[dk].span.start)
                        .line,
                };
                let mut on_edge = around.clone();
                if !off {
                    on_edge.extend(&options);
                    // The dial's own service config, as a use of it here.
                    for &p in &policies {
                        let Some(src) = files[j].facts.policies.get(p) else {
                            continue;
                        };
                        let mut r = src.rebased(pass.span);
                        r.use_of = Some(format!(
                            "the dial of `{}` at {}:{}",
                            pass.func, dial_at.path, dial_at.line
                        ));
                        r.settings_from.push(SettingPlace {
                            path: dial_at.path.clone(),
                            line: files[j].source.line_col(src.span.start).line,
                        });
                        on_edge.push(files[i].facts.policies.len());
                        files[i].facts.policies.push(r);
                    }
                }
                on_edge.sort_unstable();
                on_edge.dedup();
                let via = |what: &str| {
                    format!(
                        "{}() of {} dialing {what} ({}:{}) in Go",
                        pass.func, import, dial_at.path, dial_at.line
                    )
                };
                if let Some(e) = edge.and_then(|e| files[j].facts.edges.get(e)).cloned() {
                    let g = &mut files[i].facts;
                    if !off {
                        for &m in &embeds {
                            if let Some(c) = g.embedded_configs.get_mut(m) {
                                c.edges.push(g.edges.len());
                            }
                        }
                    }
                    g.edges.push(CallEdge {
                        caller: None,
                        callee: e.callee.clone(),
                        span: pass.span,
                        policies: on_edge,
                        via: via(&format!("`{}`", e.callee)),
                        client: None,
                        protocol: e.protocol,
                    });
                } else if let Some(u) = unresolved
                    .and_then(|u| files[j].facts.unresolved.get(u))
                    .cloned()
                {
                    let mut n = UnresolvedCall::new(pass.span, u.written.clone());
                    n.policies = on_edge;
                    let g = &mut files[i].facts;
                    if !off {
                        for &m in &embeds {
                            if let Some(c) = g.embedded_configs.get_mut(m) {
                                c.unresolved.push(g.unresolved.len());
                            }
                        }
                    }
                    g.unresolved.push(n);
                }
            }
        }
    }
}

/// The folder of the nearest `go.mod` at or above `dir` and its module
/// path.
pub(super) fn module_of(
    dir: &Path,
    cache: &mut HashMap<PathBuf, Option<(PathBuf, String)>>,
    disk: Disk<'_>,
) -> Option<(PathBuf, String)> {
    let mut walked = Vec::new();
    let mut cur = Some(dir);
    let mut found = None;
    for _ in 0..MAX_UP {
        let Some(d) = cur else { break };
        if let Some(hit) = cache.get(d) {
            found = hit.clone();
            break;
        }
        walked.push(d.to_path_buf());
        if let Some(text) = disk.read(&d.join("go.mod"), MAX_GO_MOD) {
            found = module_line(&text).map(|m| (d.to_path_buf(), m));
            break;
        }
        cur = d.parent();
    }
    for w in walked {
        cache.insert(w, found.clone());
    }
    found
}

/// `module example.com/shop` (quoted or with a comment after it).
fn module_line(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("module")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let m = rest.split("//").next()?.trim().trim_matches(['"', '`']);
        (!m.is_empty()).then(|| m.to_string())
    })
}

/// The folder of package `import` in the module `module` rooted at `root`.
pub(super) fn package_dir(root: &Path, module: &str, import: &str) -> Option<PathBuf> {
    if import == module {
        return Some(root.to_path_buf());
    }
    let rest = import.strip_prefix(module)?.strip_prefix('/')?;
    if rest
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return None;
    }
    Some(root.join(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_paths_below_the_module() {
        let root = Path::new("/r");
        assert_eq!(
            package_dir(root, "example.com/shop", "example.com/shop/internal/users"),
            Some(PathBuf::from("/r/internal/users"))
        );
        assert_eq!(
            package_dir(root, "example.com/shop", "example.com/shop"),
            Some(PathBuf::from("/r"))
        );
        // Another module whose path starts alike.
        assert_eq!(
            package_dir(root, "example.com/shop", "example.com/shopping/x"),
            None
        );
        assert_eq!(
            package_dir(root, "example.com/shop", "example.com/shop/../x"),
            None
        );
        assert_eq!(
            module_line("// c\nmodule \"example.com/a\" // old\n\ngo 1.22\n"),
            Some("example.com/a".to_string())
        );
        assert_eq!(module_line("modules x\n"), None);
    }
}
