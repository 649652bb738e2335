//! One tree-sitter parse under a budget, for every reader built on a
//! tree-sitter grammar (Java, Python, C#, Go).
//!
//! Error recovery can go on for minutes on a few kilobytes of broken text
//! (a fuzzer found one in the Java grammar): the parse gets a budget of
//! progress steps in proportion to the file, far above what real code
//! needs (at most 0.03 per byte over the fixtures, the corpus, the bench
//! tree and 10,000 fuzz inputs), and a file that exceeds it is a finding
//! (RL903), not a stall.

use super::Facts;

/// The progress steps a parse of `len` bytes may take: real code needs
/// about one per 200 bytes, pathological error recovery hundreds per byte.
pub fn parse_budget(len: usize) -> u64 {
    2_000 + len as u64 / 4
}

/// Parse `text` with `parser` (its language set) within
/// [`parse_budget`]. `None` when the parse stopped: over the budget (an
/// RL903 finding in `facts`, claimed by `reader`, saying the `language`
/// parser gave up and that the file does not `does_not` as it is), or on
/// the scan's deadline (which unwinds here, outside the C parser).
pub fn parse(
    parser: &mut tree_sitter::Parser,
    text: &str,
    language: &str,
    does_not: &str,
    reader: &'static str,
    facts: &mut Facts,
) -> Option<tree_sitter::Tree> {
    let budget = parse_budget(text.len());
    parse_within(parser, text, budget, language, does_not, reader, facts)
}

/// A parser for `grammar`, then [`parse`]: what every source reader does
/// first. `None` when the grammar does not load (never for the pinned
/// grammars) or the parse stopped.
pub fn parse_source(
    grammar: tree_sitter::Language,
    text: &str,
    language: &str,
    does_not: &str,
    reader: &'static str,
    facts: &mut Facts,
) -> Option<tree_sitter::Tree> {
    parse_source_skipping(grammar, text, &[], language, does_not, reader, facts)
}

/// [`parse_source`] leaving the byte ranges `skip` (sorted, apart) out of
/// the parse: the parser jumps over them (bodies no reader needs, blanked
/// or not) instead of lexing them.
pub fn parse_source_skipping(
    grammar: tree_sitter::Language,
    text: &str,
    skip: &[std::ops::Range<usize>],
    language: &str,
    does_not: &str,
    reader: &'static str,
    facts: &mut Facts,
) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar).ok()?;
    if !skip.is_empty() && parser.set_included_ranges(&included(text, skip)).is_err() {
        let _ = parser.set_included_ranges(&[]);
    }
    parse(&mut parser, text, language, does_not, reader, facts)
}

/// The parser's included ranges: everything but `skip` (sorted, not
/// nested), with row and column of each end.
pub fn included(src: &str, skip: &[std::ops::Range<usize>]) -> Vec<tree_sitter::Range> {
    let mut bounds: Vec<usize> = Vec::with_capacity(skip.len() * 2 + 2);
    bounds.push(0);
    for r in skip {
        bounds.push(r.start);
        bounds.push(r.end);
    }
    bounds.push(src.len());
    // Points of every bound, in one pass over the newlines.
    let mut points = Vec::with_capacity(bounds.len());
    let mut newlines = memchr::memchr_iter(b'\n', src.as_bytes()).peekable();
    let (mut row, mut line_start) = (0usize, 0usize);
    for &at in &bounds {
        while let Some(&nl) = newlines.peek() {
            if nl >= at {
                break;
            }
            row += 1;
            line_start = nl + 1;
            newlines.next();
        }
        points.push(tree_sitter::Point::new(row, at - line_start));
    }
    bounds
        .chunks(2)
        .zip(points.chunks(2))
        .filter(|(b, _)| b[0] < b[1])
        .map(|(b, p)| tree_sitter::Range {
            start_byte: b[0],
            end_byte: b[1],
            start_point: p[0],
            end_point: p[1],
        })
        .collect()
}

/// A reader's [`Grammar`], read once, and its `Kind` trait (a node's kind
/// name, what `Node::kind` gives, from the grammar's table):
/// `grammar_tables!(tree_sitter_java::LANGUAGE)` declares `fn grammar()`
/// and `pub trait Kind` for `tree_sitter::Node` in the calling module.
macro_rules! grammar_tables {
    ($lang:expr) => {
        /// The grammar's kind and field tables
        /// ([`crate::extract::tree_sitter::Grammar`]), read once.
        fn grammar() -> &'static $crate::extract::tree_sitter::Grammar {
            static GRAMMAR: std::sync::LazyLock<$crate::extract::tree_sitter::Grammar> =
                std::sync::LazyLock::new(|| {
                    $crate::extract::tree_sitter::Grammar::new(&$lang.into())
                });
            &GRAMMAR
        }

        /// A node's kind name, what `Node::kind` gives, from the grammar's
        /// table: for the scans over every node of a file.
        pub trait Kind {
            fn kind_str(&self) -> &'static str;
        }

        impl Kind for tree_sitter::Node<'_> {
            fn kind_str(&self) -> &'static str {
                grammar().kind(*self)
            }
        }
    };
}
pub(crate) use grammar_tables;

/// A grammar's node kind names by kind id and its field names with their
/// ids, read once per grammar: a node's kind is then a table lookup
/// (`Node::kind` measures the grammar's C string and checks it for UTF-8
/// on every call: 7% of a scan of apache/zookeeper in the Java reader,
/// ~2.5% of databend's in the Python reader's scans over every node) and
/// a field is found by id (`child_by_field_name` compares the name with
/// every field name of the grammar first). Shared by the Java and Python
/// readers (the Go reader keeps the few ids it tests).
pub struct Grammar {
    kinds: Vec<&'static str>,
    /// The field names with their ids, by the name's length (a lookup
    /// compares the bytes of the few names of that length only).
    fields: Vec<Vec<(&'static str, std::num::NonZeroU16)>>,
}

impl Grammar {
    pub fn new(lang: &tree_sitter::Language) -> Grammar {
        let kinds = (0..lang.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| lang.node_kind_for_id(id))
                    .unwrap_or("")
            })
            .collect();
        let mut fields: Vec<Vec<(&'static str, std::num::NonZeroU16)>> = Vec::new();
        for id in 1..=lang.field_count() {
            let Some(id) = u16::try_from(id).ok() else {
                continue;
            };
            let (Some(name), Some(nz)) =
                (lang.field_name_for_id(id), std::num::NonZeroU16::new(id))
            else {
                continue;
            };
            if fields.len() <= name.len() {
                fields.resize_with(name.len() + 1, Vec::new);
            }
            fields[name.len()].push((name, nz));
        }
        Grammar { kinds, fields }
    }

    /// A node's kind name, what `Node::kind` gives (`n` of this grammar).
    pub fn kind(&self, n: tree_sitter::Node<'_>) -> &'static str {
        match self.kinds.get(usize::from(n.kind_id())) {
            Some(k) if !k.is_empty() => k,
            _ => n.kind(),
        }
    }

    /// `n`'s child in field `name`, what `child_by_field_name` gives.
    pub fn field<'a>(&self, n: tree_sitter::Node<'a>, name: &str) -> Option<tree_sitter::Node<'a>> {
        let same_length = self.fields.get(name.len()).map_or(&[][..], Vec::as_slice);
        match same_length.iter().find(|(f, _)| *f == name) {
            Some(&(_, id)) => n.child_by_field_id(id.get()),
            None => n.child_by_field_name(name),
        }
    }
}

/// [`parse`] with a given budget of progress steps.
fn parse_within(
    parser: &mut tree_sitter::Parser,
    text: &str,
    budget: u64,
    language: &str,
    does_not: &str,
    reader: &'static str,
    facts: &mut Facts,
) -> Option<tree_sitter::Tree> {
    let mut steps = 0u64;
    let mut progress = |_: &tree_sitter::ParseState| {
        steps += 1;
        // (The scan's time guard cannot unwind through the C parser: it
        // stops the parse here and unwinds below.)
        if steps > budget || (steps.is_multiple_of(1024) && crate::guard::expired()) {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let bytes = text.as_bytes();
    let parsed = parser.parse_with_options(
        &mut |i, _| bytes.get(i..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    );
    if parsed.is_none() {
        crate::guard::stop_if_expired();
        if steps > budget {
            facts.diagnostics.push(crate::diag::unparsable_file::file(
                &format!(
                    "the {language} parser gave up after `{budget}` steps of recovering from syntax errors"
                ),
                &format!(
                    "fix the syntax errors (the file does not {does_not} as it is), or exclude it if it is generated"
                ),
            ));
            facts.claimed_by(reader);
        }
    }
    parsed
}

/// The named nodes below a root (itself first) in source order, as
/// [`walk_named`] lists them, with each one's parent and where its
/// subtree ends, by index into `nodes`.
pub struct Walk<'a> {
    pub nodes: Vec<tree_sitter::Node<'a>>,
    /// Each node's parent ([`NO_PARENT`] for the root).
    pub ups: Vec<u32>,
    /// One past the last node of each node's subtree: a subtree is a run
    /// of `nodes`.
    pub ends: Vec<u32>,
}

/// The root's parent in [`Walk::ups`].
pub const NO_PARENT: u32 = u32::MAX;

/// Every named node below `root` (itself included) that `keep` keeps, in
/// source order, at most `max`: what walking `named_children` from the
/// root gives, with one cursor instead of a cursor and a vector per node
/// (asking each node for its named children resets a cursor on it and
/// builds a node per child). Anonymous nodes are stepped over, not into;
/// a node `keep` refuses is left out with everything below it. The
/// indexes of the Java, C# and Go readers' `Ctx`.
pub fn walk_named<'a>(
    root: tree_sitter::Node<'a>,
    keep: impl Fn(tree_sitter::Node<'a>) -> bool,
    max: usize,
) -> Walk<'a> {
    let mut w = Walk {
        nodes: vec![root],
        ups: vec![NO_PARENT],
        ends: vec![1],
    };
    let mut cursor = root.walk();
    // The indices of the named nodes the cursor went down from.
    let mut path: Vec<u32> = vec![0];
    if cursor.goto_first_child() {
        'walk: loop {
            let n = cursor.node();
            if n.is_named() && keep(n) {
                if w.nodes.len() >= max {
                    break 'walk;
                }
                let i = w.nodes.len() as u32;
                w.nodes.push(n);
                w.ups.push(path.last().copied().unwrap_or(NO_PARENT));
                w.ends.push(i + 1);
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
                if let Some(i) = path.pop() {
                    w.ends[i as usize] = w.nodes.len() as u32;
                }
                if path.is_empty() {
                    break 'walk;
                }
            }
        }
    }
    for i in path {
        w.ends[i as usize] = w.nodes.len() as u32;
    }
    w
}

/// [`walk_named`]'s nodes and each one's parent node by node id (the C#
/// reader's `Ctx`).
pub fn index_named<'a>(
    root: tree_sitter::Node<'a>,
    keep: impl Fn(tree_sitter::Node<'a>) -> bool,
    max: usize,
) -> (Vec<tree_sitter::Node<'a>>, IdMap<tree_sitter::Node<'a>>) {
    let w = walk_named(root, keep, max);
    let parents = w
        .nodes
        .iter()
        .zip(&w.ups)
        .skip(1)
        .map(|(n, &up)| (n.id(), w.nodes[up as usize]))
        .collect();
    (w.nodes, parents)
}

/// A map keyed by tree-sitter node ids (addresses): a multiply-and-fold
/// hash instead of SipHash, which was most of the index's cost.
pub type IdMap<V> = std::collections::HashMap<usize, V, std::hash::BuildHasherDefault<IdHasher>>;

#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_usize(self.0 as usize ^ usize::from(b));
        }
    }
    fn write_usize(&mut self, n: usize) {
        // Node addresses have their low bits clear: fold the high half
        // of the product (where the multiplication puts the entropy)
        // down to the bucket bits.
        let h = (n as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parse over its budget stops, and says so as one RL903 claimed by
    /// the reader; within it, the tree comes back and nothing is said.
    #[test]
    fn a_parse_over_its_budget_is_one_rl903_not_a_stall() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let text = format!("import requests\n{}", "(((([[[{{{".repeat(2_000));
        let mut facts = Facts::default();
        let tree = parse_within(
            &mut parser,
            &text,
            10,
            "Python",
            "run",
            "python",
            &mut facts,
        );
        assert!(tree.is_none());
        assert_eq!(facts.diagnostics.len(), 1);
        assert_eq!(facts.diagnostics[0].code, crate::diag::Code::RL903);
        assert!(facts.diagnostics[0].message.contains("after `10` steps"));
        assert_eq!(facts.extractors, ["python"]);
        let mut facts = Facts::default();
        let tree = parse(&mut parser, &text, "Python", "run", "python", &mut facts);
        assert!(tree.is_some());
        assert!(facts.diagnostics.is_empty() && facts.extractors.is_empty());
    }
}
