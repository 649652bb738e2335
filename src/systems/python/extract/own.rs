//! Which nodes of a loop's body are the loop's own: not those of a
//! nested loop, function, lambda or class ([`super`]'s readers look at
//! what one pass round the loop does).

use super::super::Kind as _;
use super::Ctx;
use tree_sitter::Node;

/// The nodes of a loop's body that are the loop's own (those whose
/// [`owner_loop`] is the loop): the body's subtree in source order, each
/// nested loop, function, lambda or class kept but not what is inside it.
/// One pass over the preorder slice; asking [`owner_loop`] of every node
/// walked up the tree from each (tree-sitter finds a parent from the
/// root down), 66 M instructions of databend 43b24ec0's Python reader.
pub(super) fn own_nodes<'a>(ctx: &Ctx<'a>, lp: Node<'_>, body: Node<'a>) -> Vec<Node<'a>> {
    let owner = Some(lp.id());
    let mut out = Vec::new();
    // The end of the nested owner whose inside is being passed over.
    let mut inside: Option<usize> = None;
    for &c in ctx.subtree(body) {
        if let Some(end) = inside {
            if c.start_byte() < end {
                continue;
            }
            // An empty node where the nested one ends may be its last
            // child or the next sibling: the tree says which.
            if c.start_byte() == end && c.end_byte() == end {
                if owner_loop(c) == owner {
                    out.push(c);
                }
                continue;
            }
            inside = None;
        }
        out.push(c);
        if c.id() != body.id()
            && matches!(
                c.kind_str(),
                "for_statement"
                    | "while_statement"
                    | "function_definition"
                    | "lambda"
                    | "class_definition"
            )
        {
            inside = Some(c.end_byte());
        }
    }
    out
}

/// The innermost loop or function a node belongs to.
pub(super) fn owner_loop(n: Node<'_>) -> Option<usize> {
    let mut cur = n.parent();
    for _ in 0..10_000 {
        let c = cur?;
        match c.kind_str() {
            "for_statement" | "while_statement" => return Some(c.id()),
            "function_definition" | "lambda" | "class_definition" => return None,
            _ => cur = c.parent(),
        }
    }
    None
}
