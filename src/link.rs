//! Link steps that need more than one file: done once, after every file is
//! extracted and before the graph is built.

use crate::ScannedFile;
use crate::model::ServiceDecl;
use crate::source::Span;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest `Cargo.toml` read for a package name.
const MAX_MANIFEST: u64 = 1 << 20;

/// Give every Rust file the name of its Cargo package (`[package] name` of
/// `<crate dir>/Cargo.toml`), read once per crate and only inside the
/// scanned roots, as its service identity.
pub fn cargo_identities(files: &mut [ScannedFile], roots: &[PathBuf]) {
    let mut names: BTreeMap<String, Option<String>> = BTreeMap::new();
    for f in files.iter_mut() {
        let Some(dir) = f.facts.rust.crate_dir.clone() else {
            continue;
        };
        let name = names
            .entry(dir.clone())
            .or_insert_with(|| package_name(Path::new(&dir), roots))
            .clone();
        if let Some(name) = name {
            f.facts.services.push(ServiceDecl {
                name,
                span: Span::default(),
                source: "Cargo package".into(),
                hosts: Vec::new(),
            });
        }
    }
}

fn package_name(dir: &Path, roots: &[PathBuf]) -> Option<String> {
    let manifest = dir.join("Cargo.toml");
    if !inside(&manifest, roots) {
        return None;
    }
    let meta = std::fs::symlink_metadata(&manifest).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return None;
    }
    let text = std::fs::read_to_string(&manifest).ok()?;
    let table: toml::Table = text.parse().ok()?;
    table
        .get("package")?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// Whether `rel` below `dir` is a file, found without following any
/// symbolic link: a link on the way may lead out of the scanned roots, so
/// it is taken as "there" (no finding) and never resolved.
fn is_file_or_link(dir: &Path, rel: &str) -> bool {
    let mut cur = dir.to_path_buf();
    let parts: Vec<_> = Path::new(rel).components().collect();
    for (i, c) in parts.iter().enumerate() {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Err(_) => return false,
            Ok(m) if m.file_type().is_symlink() => return true,
            Ok(m) if i + 1 == parts.len() => return m.is_file(),
            Ok(_) => {}
        }
    }
    false
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
    let p = norm(path);
    roots.iter().any(|r| {
        let r = norm(r);
        r.as_os_str().is_empty() || p.starts_with(&r)
    })
}

/// nginx `include`s, resolved among the scanned files: a plain path that
/// names no file (nginx refuses to start) and an include that comes back to
/// its own file are reported (RL902). Globs may match nothing, as nginx
/// allows; absolute paths outside the scanned tree (`/etc/nginx/mime.types`)
/// are not looked for. Settings of an included file are not merged into the
/// including block: each file is checked with its own settings.
pub fn nginx_includes(files: &mut [ScannedFile], roots: &[PathBuf]) {
    use crate::rules::settings::invalid_setting;
    let paths: Vec<String> = files.iter().map(|f| f.source.display_path()).collect();
    // file -> files it includes (indices), with the include's span.
    let mut edges: Vec<Vec<(usize, Span, String)>> = vec![Vec::new(); files.len()];
    let mut missing: Vec<(usize, Span, String)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        let dir = Path::new(&paths[id])
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for inc in &f.facts.includes {
            let pattern = inc.pattern.trim();
            if pattern.contains('$') || pattern.is_empty() {
                continue;
            }
            let glob = pattern.contains(['*', '?', '[']);
            let targets: Vec<usize> = if pattern.starts_with('/') {
                // Matched by the part below the nginx folder, if any.
                let tail = pattern.rsplit_once("/nginx/").map_or(pattern, |(_, t)| t);
                matching(&paths, tail, true)
            } else {
                let joined = crate::source::display_path(&dir.join(pattern));
                matching(&paths, &joined, false)
            };
            if targets.is_empty() && !glob && !pattern.starts_with('/') {
                let on_disk = dir.join(pattern);
                if !(inside(&on_disk, roots) && is_file_or_link(&dir, pattern)) {
                    missing.push((id, inc.span, pattern.to_string()));
                }
            }
            for t in targets {
                edges[id].push((t, inc.span, pattern.to_string()));
            }
        }
    }
    for (id, span, pattern) in missing {
        files[id].facts.diagnostics.push(invalid_setting::value(
            span,
            "include",
            &pattern,
            "no such file next to this one: nginx refuses to start",
        ));
    }
    // An include that leads back to its own file (nginx recurses until it
    // runs out of file descriptors).
    for start in 0..files.len() {
        for &(first, span, ref pattern) in &edges[start] {
            let mut seen = vec![false; files.len()];
            let mut stack = vec![first];
            let mut cycle = false;
            while let Some(n) = stack.pop() {
                if n == start {
                    cycle = true;
                    break;
                }
                if std::mem::replace(&mut seen[n], true) {
                    continue;
                }
                stack.extend(edges[n].iter().map(|(t, ..)| *t));
            }
            if cycle {
                let msg = format!(
                    "includes `{}` again, through `{}`: nginx recurses without end",
                    paths[start], paths[first]
                );
                files[start]
                    .facts
                    .diagnostics
                    .push(invalid_setting::value(span, "include", pattern, &msg));
            }
        }
    }
}

/// Indices of the scanned files whose path matches `pattern` (a path or
/// glob; `suffix` to match the end of the path only).
fn matching(paths: &[String], pattern: &str, suffix: bool) -> Vec<usize> {
    let pattern = pattern.trim_start_matches("./");
    let glob = if suffix {
        format!("**/{pattern}")
    } else {
        pattern.to_string()
    };
    let Ok(g) = globset::GlobBuilder::new(&glob)
        .literal_separator(true)
        .build()
    else {
        return Vec::new();
    };
    let m = g.compile_matcher();
    paths
        .iter()
        .enumerate()
        .filter(|(_, p)| m.is_match(p.trim_start_matches("./")))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_outside_the_roots_are_not_read() {
        let roots = [PathBuf::from("services/payments/src")];
        assert!(!inside(Path::new("services/payments/Cargo.toml"), &roots));
        let roots = [PathBuf::from("./services")];
        assert!(inside(Path::new("services/payments/Cargo.toml"), &roots));
        let roots = [PathBuf::from(".")];
        assert!(inside(Path::new("x/Cargo.toml"), &roots));
        let roots = [PathBuf::from("a")];
        assert!(!inside(Path::new("a/../b/Cargo.toml"), &roots));
    }

    #[cfg(unix)]
    #[test]
    fn an_include_is_looked_up_without_following_links() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.conf"), "").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.join("out")).unwrap();
        assert!(is_file_or_link(d, "real.conf"));
        assert!(!is_file_or_link(d, "absent.conf"));
        // Through a link nothing is resolved: whether `out/x.conf` exists
        // (it does not) is never asked.
        assert!(is_file_or_link(d, "out/x.conf"));
        assert!(is_file_or_link(d, "out/../real.conf"));
    }
}
