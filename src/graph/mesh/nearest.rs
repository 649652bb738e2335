//! The mesh file nearest a folder, from an index of the mesh files'
//! folders: a tree of their `/`-separated parts, each node holding the
//! first file below it. The nearest file was found by comparing the
//! folder with every mesh file's (`common_prefix`), once per workload:
//! 40,000 comparisons on the generated 10,000-file tree (200 workloads,
//! 200 mesh files), a twentieth of a one-file run.

use crate::source::FileId;
use std::collections::HashMap;

/// The index of a list of files by their folders (`k8s/prod/`, or empty
/// at the root: what `MeshFacts::folder` gives).
#[derive(Default)]
pub(super) struct Nearest {
    /// A node's child by the next part of a folder; node 0 is the root.
    children: HashMap<(usize, String), usize>,
    /// Per node: the position in the list of its first file (the smallest
    /// id) whose folder passes through it.
    first: Vec<usize>,
}

impl Nearest {
    /// The index of `files` (`(id, folder)`, in the list's order).
    pub fn new<'a>(files: impl Iterator<Item = (FileId, &'a str)>) -> Self {
        let mut n = Nearest::default();
        let mut ids: Vec<FileId> = Vec::new();
        for (at, (id, folder)) in files.enumerate() {
            ids.push(id);
            let mut node = n.node(0, None, at, &ids);
            for part in folder.split('/') {
                node = n.node(node, Some(part), at, &ids);
            }
        }
        n
    }

    /// The node `part` below `parent` (the root for `None`), made when
    /// new, with the file at `at` counted in it.
    fn node(&mut self, parent: usize, part: Option<&str>, at: usize, ids: &[FileId]) -> usize {
        let node = match part {
            None => 0,
            Some(p) => {
                let next = self.first.len();
                *self.children.entry((parent, p.to_string())).or_insert(next)
            }
        };
        match self.first.get_mut(node) {
            Some(f) if ids[at] < ids[*f] => *f = at,
            Some(_) => {}
            None => self.first.push(at),
        }
        node
    }

    /// The position of the file whose folder shares the most leading
    /// parts with `here` (counted as `common_prefix` counts them), the
    /// smallest id of equally near ones; `None` when there is no file.
    pub fn nearest(&self, here: &str) -> Option<usize> {
        let mut node = 0;
        let mut best = *self.first.first()?;
        for part in here.split('/') {
            match self.children.get(&(node, part.to_string())) {
                Some(&next) => {
                    node = next;
                    best = self.first[node];
                }
                None => break,
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn common_prefix(a: &str, b: &str) -> usize {
        a.split('/')
            .zip(b.split('/'))
            .take_while(|(x, y)| x == y)
            .count()
    }

    /// What the index answers, by comparing with every file.
    fn by_comparing(files: &[(FileId, &str)], here: &str) -> Option<usize> {
        files
            .iter()
            .enumerate()
            .max_by_key(|(_, (id, f))| (common_prefix(f, here), std::cmp::Reverse(*id)))
            .map(|(at, _)| at)
    }

    #[test]
    fn the_index_answers_as_comparing_with_every_file() {
        let folders = [
            "", "a/", "a/b/", "a/b/c/", "a/bc/", "ab/", "a//b/", "x/y/", "a/b/", "x/",
        ];
        let heres = [
            "", "a/", "a/b/", "a/b/c/", "a/b/c/d/", "a/bc/", "ab/", "a//", "a//b/", "x/", "x/y/",
            "x/z/", "q/", "a/x/", "b/",
        ];
        // Every subset of the folders (in order, with ids out of order too).
        for mask in 0u32..(1 << folders.len()) {
            let files: Vec<(FileId, &str)> = folders
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(i, f)| ((i * 7) % 11, *f))
                .collect();
            let index = Nearest::new(files.iter().copied());
            for here in heres {
                assert_eq!(
                    index.nearest(here),
                    by_comparing(&files, here),
                    "{files:?} {here:?}"
                );
            }
        }
    }
}
