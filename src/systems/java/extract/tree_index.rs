//! The one walk of a parsed Java file that every reader shares: its named
//! nodes but comments in source order (what a stack of `named_children`
//! gives), each one's parent and where its subtree ends. A subtree is a
//! run of that list, so the readers' searches below a node (a loop's
//! body, a catch, a condition) read a slice of it instead of walking the
//! tree again with a cursor: each cursor step was several hundred
//! instructions (tree-sitter steps through the grammar's hidden nodes),
//! and the loop reader's walks alone were a fifth of the Java reader on
//! the generated tree (stop 59, `javacut2`).

use super::ast::Kind as _;
use tree_sitter::Node;

use crate::extract::tree_sitter::{IdMap, walk_named};

/// Parents and subtree ends of the nodes of a `Ctx`, by index into its
/// `nodes`.
pub(super) struct Index {
    /// One past the last node of each node's subtree.
    ends: Vec<u32>,
    /// Each node's parent ([`crate::extract::tree_sitter::NO_PARENT`] for
    /// the root).
    ups: Vec<u32>,
    /// Each node's index by node id.
    at: IdMap<u32>,
}

fn is_comment(n: Node<'_>) -> bool {
    matches!(n.kind_str(), "comment" | "line_comment" | "block_comment")
}

/// Every named node but comments below `root` (itself included), in
/// source order, and the index over them. A comment is left out with
/// everything below it, as `ast::descendants_until` leaves it out.
pub(super) fn index(root: Node<'_>) -> (Vec<Node<'_>>, Index) {
    let w = walk_named(root, |n| !is_comment(n), usize::MAX);
    let at = w
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id(), i as u32))
        .collect();
    let index = Index {
        ends: w.ends,
        ups: w.ups,
        at,
    };
    (w.nodes, index)
}

impl Index {
    /// Where `n` is among the nodes (`None`: an unnamed node, a comment, a
    /// node of another tree).
    pub(super) fn of(&self, n: Node<'_>) -> Option<usize> {
        self.at.get(&n.id()).map(|&i| i as usize)
    }

    /// The parent of `n` among `nodes`.
    pub(super) fn parent<'a>(&self, nodes: &[Node<'a>], n: Node<'_>) -> Option<Node<'a>> {
        let i = self.of(n)?;
        nodes.get(*self.ups.get(i)? as usize).copied()
    }

    /// The nodes below `nodes[i]` (itself included), not entering a node
    /// `stop` says so of (nor taking it): `ast::descendants_until` read
    /// off the list.
    pub(super) fn below<'n>(
        &self,
        nodes: &[Node<'n>],
        i: usize,
        stop: impl Fn(Node<'n>) -> bool,
    ) -> Vec<Node<'n>> {
        let end = self.ends[i] as usize;
        let mut out = Vec::with_capacity(end - i);
        out.push(nodes[i]);
        let mut k = i + 1;
        while k < end {
            let n = nodes[k];
            if stop(n) {
                k = self.ends[k] as usize;
            } else {
                out.push(n);
                k += 1;
            }
        }
        out
    }

    /// The children of `nodes[i]` among `nodes`: what `ast::named_children`
    /// gives (named, comments left out), without a cursor.
    pub(super) fn children<'n>(&self, nodes: &[Node<'n>], i: usize) -> Vec<Node<'n>> {
        let end = self.ends[i] as usize;
        let mut out = Vec::new();
        let mut k = i + 1;
        while k < end {
            out.push(nodes[k]);
            k = self.ends[k] as usize;
        }
        out
    }
}
