//! Dapr's multi-app run file (`dapr.yaml`: `version: 1`, `apps:` each
//! with `appID` and `appDirPath`; dapr/cli `pkg/runfileconfig`): the
//! program in `appDirPath` runs under the app id `appID`, the name its
//! sidecar is called by (`dapr-app-id`) and the name a `Resiliency`'s
//! `scopes` list. Each app is declared as a service built from that
//! folder, as a compose service with `build:` is, so the program there
//! (a Go module, a Maven module, a folder of Python files) is joined to
//! the app id (`link::units`).
//!
//! The reader is pure and bounded: one document, at most [`MAX_APPS`]
//! apps. [`link`] drops an app id given to two folders' programs.

use crate::model::calls::{IdentityKind, ServiceDecl, short_host};
use crate::model::{Facts, ScannedFile};
use crate::yaml::Yaml;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// How a run file's app declares itself ([`ServiceDecl::source`]).
const SOURCE: &str = "Dapr multi-app run `appID`";

/// Words that make a file worth parsing for this reader.
pub const NEEDLES: &[&str] = &["appDirPath"];

/// Apps read of one file, at most.
const MAX_APPS: usize = 128;

/// Read one document; `false` when it is not a multi-app run file.
pub fn extract(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(apps) = root.get("apps") else {
        return false;
    };
    if root.get("version").is_none() {
        return false;
    }
    let mut any = false;
    for app in apps.items().into_iter().take(MAX_APPS) {
        let id = app.get("appID").and_then(|v| v.as_str()).map(str::trim);
        let dir = app
            .get("appDirPath")
            .and_then(|v| v.as_str())
            .map(str::trim);
        let (Some(id), Some(dir)) = (id, dir) else {
            continue;
        };
        let valid = !id.is_empty()
            && id.len() <= 253
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
        if !valid || dir.is_empty() || dir.contains("${") {
            continue;
        }
        let span = app.get("appID").map_or(app.span(), |v| v.span());
        let mut s = ServiceDecl::new(
            id,
            span,
            IdentityKind::Compose,
            SOURCE,
            vec![short_host(id)],
        );
        s.placement.build = Some(dir.trim_end_matches('/').to_string());
        facts.services.push(s);
        any = true;
    }
    any
}

/// An app id that run files give to programs of two folders (a sample
/// repository's variants of one app, each language's `dapr.yaml` naming
/// its `checkout`) says which program it is for none of them: its
/// declarations are dropped, and each program keeps its own name (a link
/// step, before `link::units` joins programs to their app ids).
pub fn link(files: &mut [ScannedFile], cwd: Option<&Path>) {
    let folder = |f: &ScannedFile, s: &ServiceDecl| -> Option<PathBuf> {
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        let dir = path.parent()?.join(s.placement.build.as_deref()?);
        Some(crate::source::fold_dots(&dir))
    };
    let mut folders: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
    for f in files.iter() {
        for s in f.facts.services.iter().filter(|s| is_run_app(s)) {
            if let Some(d) = folder(f, s) {
                folders.entry(s.name.clone()).or_default().insert(d);
            }
        }
    }
    let shared: BTreeSet<&String> = folders
        .iter()
        .filter(|(_, d)| d.len() > 1)
        .map(|(n, _)| n)
        .collect();
    if shared.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        f.facts
            .services
            .retain(|s| !(is_run_app(s) && shared.contains(&s.name)));
    }
}

/// Whether `s` is an app of a multi-app run file.
pub fn is_run_app(s: &ServiceDecl) -> bool {
    s.kind == IdentityKind::Compose && s.source == SOURCE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(String, Option<String>)> {
        let file = crate::yaml::parse(text);
        let mut facts = Facts::default();
        for d in &file.documents {
            extract(file.root(d), &mut facts);
        }
        facts
            .services
            .into_iter()
            .map(|s| (s.name, s.placement.build))
            .collect()
    }

    #[test]
    fn each_app_is_its_folders_program() {
        let t = "version: 1\napps:\n  - appID: order-processor\n    appDirPath: ./order-processor/\n    appPort: 6001\n  - appID: checkout\n    appDirPath: ./checkout/\n  - appID: ${APP}\n    appDirPath: ./x/\n  - appDirPath: ./noid/\n";
        assert_eq!(
            read(t),
            [
                (
                    "order-processor".to_string(),
                    Some("./order-processor".to_string())
                ),
                ("checkout".to_string(), Some("./checkout".to_string())),
            ]
        );
        // A file with `apps` but no `version` (another tool's) is not one.
        assert!(read("apps:\n  - appID: a\n    appDirPath: ./a\n").is_empty());
    }
}
