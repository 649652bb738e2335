//! The file's one walk ([`super::tree_index`]) reads what a cursor read:
//! on every named node of every Java fixture and corpus file,
//! `Ctx::descendants(_until)` and `Ctx::named_children` give the nodes
//! `ast::descendants(_until)` and `ast::named_children` give, in the same
//! order, and `Ctx::parent` is tree-sitter's own parent.

use super::*;

fn ids(v: &[Node<'_>]) -> Vec<usize> {
    v.iter().map(|n| n.id()).collect()
}

#[test]
fn the_walk_reads_what_a_cursor_reads() {
    let roots = crate::extract::fixture_roots();
    let files =
        crate::systems::read::files_under(&roots, |p| p.extension().is_some_and(|x| x == "java"));
    let mut seen = 0usize;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_java::LANGUAGE.into())
            .expect("the pinned grammar loads");
        let Some(tree) = parser.parse(&text, None) else {
            continue;
        };
        let ctx = Ctx::new(&text, tree.root_node());
        let at = |n: Node<'_>| format!("{} at {}", f.display(), n.start_byte());
        for &n in &ctx.nodes {
            assert_eq!(
                ids(&ctx.descendants(n)),
                ids(&ast::descendants(n)),
                "{}",
                at(n)
            );
            assert_eq!(
                ids(&ctx.descendants_until(n, loops::nested)),
                ids(&ast::descendants_until(n, loops::nested)),
                "{}",
                at(n)
            );
            assert_eq!(
                ids(&ctx.named_children(n)),
                ids(&ast::named_children(n)),
                "{}",
                at(n)
            );
            if n.id() != ctx.root.id() {
                assert_eq!(
                    ctx.parent(n).map(|p| p.id()),
                    n.parent().map(|p| p.id()),
                    "{}",
                    at(n)
                );
            }
        }
        // A node of no walk (an unnamed one) is walked as before.
        if let Some(op) = ctx
            .nodes
            .iter()
            .find_map(|n| field(*n, "operator").filter(|o| !o.is_named()))
        {
            assert_eq!(ids(&ctx.descendants(op)), ids(&ast::descendants(op)));
        }
        seen += ctx.nodes.len();
    }
    assert!(seen > 10_000, "only {seen} nodes in {} files", files.len());
}
