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
}
