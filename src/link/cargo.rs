//! Rust files take their Cargo package's name as their service identity.

use super::*;

/// The largest `Cargo.toml` read for a package name.
pub(super) const MAX_MANIFEST: u64 = 1 << 20;

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

pub(super) fn package_name(dir: &Path, roots: &[PathBuf]) -> Option<String> {
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
