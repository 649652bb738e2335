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
use crate::extract::tree_sitter::IdMap;
use tree_sitter::Node;

/// No parent (the root).
const NONE: u32 = u32::MAX;

/// Parents and subtree ends of the nodes of a `Ctx`, by index into its
/// `nodes`.
pub(super) struct Index {
    /// One past the last node of each node's subtree.
    ends: Vec<u32>,
    /// Each node's parent ([`NONE`] for the root).
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
    let mut nodes = vec![root];
    let mut ends = vec![1u32];
    let mut ups = vec![NONE];
    let mut at = IdMap::default();
    at.insert(root.id(), 0u32);
    let mut cursor = root.walk();
    // The indices of the named nodes the cursor went down from.
    let mut path: Vec<u32> = vec![0];
    let close = |path: &mut Vec<u32>, ends: &mut Vec<u32>, len: usize| {
        if let Some(i) = path.pop() {
            ends[i as usize] = len as u32;
        }
    };
    if cursor.goto_first_child() {
        'walk: loop {
            let n = cursor.node();
            if n.is_named() && !is_comment(n) {
                let i = nodes.len() as u32;
                nodes.push(n);
                ends.push(i + 1);
                ups.push(path.last().copied().unwrap_or(NONE));
                at.insert(n.id(), i);
                if cursor.goto_first_child() {
                    path.push(i);
                    continue;
                }
            }
            // The next sibling, else up until one has a next sibling.
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
                close(&mut path, &mut ends, nodes.len());
                if path.is_empty() {
                    break 'walk;
                }
            }
        }
    }
    while !path.is_empty() {
        close(&mut path, &mut ends, nodes.len());
    }
    (nodes, Index { ends, ups, at })
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
