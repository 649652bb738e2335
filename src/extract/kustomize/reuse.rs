//! A kustomization that others include, built once per scan: kept by the
//! [`Loader`] and reused by every overlay that includes it, as building
//! it again would give the same (its text and the files it reads decide
//! it; an inclusion a cycle or the nesting bound cut is never kept).

use super::{Build, Loader, MAX_NESTING, Resource, Writer, build_dir};
use std::path::Path;

/// A kustomization built from nothing: what its build gives to any build
/// that includes it, the same wherever it is included (its text and the
/// files it reads decide it), as long as the including build's stack cuts
/// none of it ([`Built::fits`]).
#[derive(Clone, Debug)]
pub struct Built {
    resources: Vec<Resource>,
    /// The writers and kustomizations it adds to the build, in order.
    writers: Vec<Writer>,
    kustomizations: Vec<usize>,
    /// How many kustomizations deep it includes, below itself.
    depth: usize,
}

impl Built {
    /// Whether building it again under `stack` would give the same: no
    /// kustomization of it is on the stack (a cycle cut) and it fits
    /// under [`MAX_NESTING`].
    fn fits(&self, stack: &[usize]) -> bool {
        stack.len() + self.depth <= MAX_NESTING
            && !self.kustomizations.iter().any(|k| stack.contains(k))
    }
}

impl Build {
    /// Add what an included build added (as building it in place would:
    /// in its order, each once).
    fn add(&mut self, writers: &[Writer], kustomizations: &[usize]) {
        for w in writers {
            if !self.writers.contains(w) {
                self.writers.push(w.clone());
            }
        }
        for k in kustomizations {
            if !self.kustomizations.contains(k) {
                self.kustomizations.push(*k);
            }
        }
    }
}

/// A kustomization folder among another one's `resources`: built from
/// nothing once per scan (the loader keeps it), then reused.
pub(super) fn build_included(
    dir: &Path,
    file: usize,
    l: &mut dyn Loader,
    b: &mut Build,
    stack: &mut Vec<usize>,
) -> Vec<Resource> {
    if let Some(k) = l.built(file).filter(|k| k.fits(stack)) {
        b.add(&k.writers, &k.kustomizations);
        b.deepest = b.deepest.max(stack.len() + k.depth);
        return k.resources.clone();
    }
    let mut sub = Build::default();
    let res = build_dir(dir, file, Vec::new(), l, &mut sub, stack);
    b.add(&sub.writers, &sub.kustomizations);
    b.cut |= sub.cut;
    b.deepest = b.deepest.max(sub.deepest);
    if !sub.cut {
        l.keep(
            file,
            Built {
                resources: res.clone(),
                writers: sub.writers,
                kustomizations: sub.kustomizations,
                depth: sub.deepest - stack.len(),
            },
        );
    }
    res
}
