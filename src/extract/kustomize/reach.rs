//! Whether an overlay's build can change anything, decided before it is
//! built: kubeflow/manifests has overlays with no patch whose resources
//! move nowhere; each was built (its resource files parsed, its included
//! builds cloned) and then dropped by the link step, which reads only a
//! build with a writer (a patch) or a kustomization that moves
//! identities ([`moves_identities`](super::moves_identities)).

use super::{Loader, find_in, normal, remote};
use crate::yaml;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The keys of a kustomization that can give a build a writer
/// (`super::patches`) or move identities.
const CHANGING: &[&str] = &[
    "patchesStrategicMerge",
    "patches",
    "patchesJson6902",
    "namespace",
    "namePrefix",
    "nameSuffix",
    "commonLabels",
    "labels",
];

/// What one kustomization says for [`Reach::may_change`], read once per
/// scan.
struct Own {
    /// It has one of [`CHANGING`] at its root.
    changes: bool,
    /// The folders of its `resources`, `bases` and `components` (those
    /// holding a kustomization are built as one).
    folders: Vec<PathBuf>,
}

/// Each kustomization's [`Own`], kept for every overlay of a scan.
#[derive(Default)]
pub struct Reach {
    own: HashMap<usize, Own>,
}

impl Reach {
    /// Whether building the kustomization `file` in `dir` may give a
    /// build with a writer or a kustomization that moves identities: one
    /// it reaches (itself, its `resources`', `bases`' and `components`'
    /// kustomizations, transitively) has one of [`CHANGING`] at its root.
    /// It follows what the build follows, through the same loader calls,
    /// and more (no nesting bound; a cycle is walked once), so `false`
    /// means the build would have no writer and move nothing.
    pub fn may_change(&mut self, dir: &Path, file: usize, l: &mut dyn Loader) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![(dir.to_path_buf(), file)];
        while let Some((dir, file)) = todo.pop() {
            if !seen.insert(file) {
                continue;
            }
            let own = self
                .own
                .entry(file)
                .or_insert_with(|| read(&dir, l.text(file)));
            if own.changes {
                return true;
            }
            for p in own.folders.clone() {
                if let Some(sub) = find_in(&p, l) {
                    todo.push((p, sub));
                }
            }
        }
        false
    }
}

fn read(dir: &Path, text: &str) -> Own {
    let f = yaml::parse(text);
    let Some(doc) = f.documents.first() else {
        return Own {
            changes: false,
            folders: Vec::new(),
        };
    };
    // Every entry of a key, duplicates too (the build reads one of them).
    let entries = f.root(doc).entries();
    Own {
        changes: entries.iter().any(|e| CHANGING.contains(&e.key)),
        folders: entries
            .iter()
            .filter(|e| ["resources", "bases", "components"].contains(&e.key))
            .flat_map(|e| e.value.items())
            .filter_map(|i| i.as_str())
            .filter(|s| !remote(s))
            .map(|s| normal(&dir.join(s)))
            .collect(),
    }
}
