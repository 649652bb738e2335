//! Whether a hand-written retry loop calls into its own file, read by the
//! loop readers from the file's parse and kept as a fact
//! ([`Facts::loops_into_file`]): the graph's fallback (a file that builds
//! one client policy calls through it) takes a loop only then. A loop
//! whose body calls only other packages' functions (`profiler.Start(..)`,
//! the logger, `time.Sleep`) retries none of the file's calls
//! (GoogleCloudPlatform/microservices-demo's `initProfiling` beside the
//! gRPC dials); one that calls a function or method the file declares
//! (`self._publish(..)` in `except`, instana/robot-shop's payment) may
//! retry the call that function makes.
//!
//! A walk of the loops for the names their calls call (the last segment
//! of the callee: `s.publish` is `publish`), and, when one of those names
//! is written outside its loop, a walk of the tree for the names the file
//! declares (outside the loop).

use crate::model::{Facts, System};
use crate::source::Span;
use tree_sitter::Node;

/// Nodes walked, at most.
const MAX_NODES: usize = 1_000_000;
/// Names a loop is looked up by, at most.
const MAX_NAMES: usize = 64;

/// A language's hand-written loop system, and its calls and
/// declarations by tree-sitter node kind.
pub struct Shape {
    /// Whether a policy is the language's hand-written retry loop.
    pub is_loop: fn(&System) -> bool,
    /// A call, and the field that names what it calls.
    pub calls: &'static [(&'static str, &'static str)],
    /// Declarations of a function or method, whose `name` field names it.
    pub decls: &'static [&'static str],
}

pub const GO: Shape = Shape {
    is_loop: |s| matches!(s, System::GoLib(l) if l == "loop"),
    calls: &[("call_expression", "function")],
    decls: &["function_declaration", "method_declaration"],
};
pub const JAVA: Shape = Shape {
    is_loop: |s| *s == System::JavaLoop,
    calls: &[("method_invocation", "name")],
    decls: &["method_declaration"],
};
pub const CSHARP: Shape = Shape {
    is_loop: |s| *s == System::CSharpLoop,
    calls: &[("invocation_expression", "function")],
    decls: &["method_declaration", "local_function_statement"],
};
pub const PYTHON: Shape = Shape {
    is_loop: |s| matches!(s, System::PythonLib(l) if l == "loop"),
    calls: &[("call", "function")],
    decls: &["function_definition"],
};

/// Record each hand-written loop policy of `facts` from index `from` on
/// whose body (the policy's span) calls a function the file declares.
pub fn record(root: Node<'_>, text: &str, shape: &Shape, from: usize, facts: &mut Facts) {
    let loops: Vec<Span> = facts
        .policies
        .iter()
        .skip(from)
        .filter(|p| (shape.is_loop)(&p.system))
        .map(|p| p.span)
        .collect();
    if loops.is_empty() {
        return;
    }
    let kinds = Kinds::of(root, shape);
    let calls = walk(root, text, &kinds, Some(&loops)).1;
    // The file's declarations, walked for only when a name a loop calls
    // is written somewhere outside that loop: a declaration outside the
    // body starts outside it and names itself before its own body, so its
    // name is text outside the body (a loop calling only `post` and
    // `sleep` in a file that writes them nowhere else needs no walk).
    let mut declared: Option<Names<'_>> = None;
    for body in loops {
        let mut names: Vec<&str> = Vec::new();
        for (at, name) in &calls {
            if body.start <= *at && *at < body.end && !names.contains(name) {
                names.push(name);
                if names.len() >= MAX_NAMES {
                    break;
                }
            }
        }
        let before = text.get(..body.start).unwrap_or(text).as_bytes();
        let after = text.get(body.end..).unwrap_or("").as_bytes();
        let written_outside = |n: &str| {
            memchr::memmem::find(before, n.as_bytes()).is_some()
                || memchr::memmem::find(after, n.as_bytes()).is_some()
        };
        if !names.iter().any(|n| written_outside(n)) {
            continue;
        }
        let declared = declared.get_or_insert_with(|| walk(root, text, &kinds, None).0);
        let into = names.iter().any(|n| {
            declared
                .iter()
                .any(|(at, d)| d == n && !(body.start <= *at && *at < body.end))
        });
        if into && !facts.loops_into_file.contains(&body) {
            facts.loops_into_file.push(body);
        }
    }
}

/// Names with where each is (a declaration's or a call's start).
type Names<'t> = Vec<(usize, &'t str)>;

/// A [`Shape`]'s node kinds and fields as the grammar numbers them, looked
/// up once a file rather than compared as strings at every node.
struct Kinds {
    /// Declaration kinds, with the `name` field's id.
    decls: Vec<u16>,
    name: Option<std::num::NonZeroU16>,
    /// Call kinds, each with the id of the field naming the callee.
    calls: Vec<(u16, Option<std::num::NonZeroU16>)>,
}

impl Kinds {
    fn of(root: Node<'_>, shape: &Shape) -> Kinds {
        let lang = root.language();
        Kinds {
            decls: shape
                .decls
                .iter()
                .map(|k| lang.id_for_node_kind(k, true))
                .filter(|&id| id != 0)
                .collect(),
            name: lang.field_id_for_name("name"),
            calls: shape
                .calls
                .iter()
                .map(|(k, f)| (lang.id_for_node_kind(k, true), lang.field_id_for_name(f)))
                .filter(|&(id, _)| id != 0)
                .collect(),
        }
    }
}

/// The names declared (with where) and called (with where) in the tree.
/// With `within`, only calls that start inside one of those spans are
/// looked for (and no declaration), and only the nodes that overlap one
/// of them are entered.
fn walk<'t>(
    root: Node<'_>,
    text: &'t str,
    kinds: &Kinds,
    within: Option<&[Span]>,
) -> (Names<'t>, Names<'t>) {
    let mut declared = Vec::new();
    let mut calls = Vec::new();
    let mut cursor = root.walk();
    let mut seen = 0usize;
    loop {
        let n = cursor.node();
        seen += 1;
        let kind = n.kind_id();
        let (start, end) = (n.start_byte(), n.end_byte());
        let enter = within.is_none_or(|spans| spans.iter().any(|s| start < s.end && s.start < end));
        if within.is_none()
            && kinds.decls.contains(&kind)
            && let Some(name) = kinds.name.and_then(|f| n.child_by_field_id(f.get()))
        {
            declared.push((start, text_of(name, text)));
        }
        if let Some(spans) = within
            && spans.iter().any(|s| s.start <= start && start < s.end)
            && let Some((_, field)) = kinds.calls.iter().find(|(k, _)| *k == kind)
            && let Some(callee) = field.and_then(|f| n.child_by_field_id(f.get()))
            && let Some(name) = last_segment(text_of(callee, text))
        {
            calls.push((start, name));
        }
        if seen >= MAX_NODES {
            break;
        }
        if enter && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return (declared, calls);
            }
        }
    }
    (declared, calls)
}

fn text_of<'t>(n: Node<'_>, text: &'t str) -> &'t str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// The name a callee's text ends with: `s.publish` is `publish`,
/// `this.Send<T>` is `Send`, `f[T]` is `f`.
fn last_segment(callee: &str) -> Option<&str> {
    let c = callee.split(['<', '[']).next().unwrap_or(callee).trim();
    let name = c.rsplit(['.', ':', '>']).next().unwrap_or(c).trim();
    (!name.is_empty()
        && !name.starts_with(|ch: char| ch.is_ascii_digit())
        && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
    .then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(lang: tree_sitter::Language, text: &str) -> tree_sitter::Tree {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&lang).unwrap();
        p.parse(text, None).unwrap()
    }

    fn span_of(text: &str, from: &str, to: &str) -> Span {
        let s = text.find(from).unwrap();
        Span::new(s, text[s..].find(to).unwrap() + s + to.len())
    }

    #[test]
    fn a_loop_calling_a_method_of_the_file_calls_into_it() {
        let text = "class P:\n    def publish(self, m):\n        for _ in range(3):\n            try:\n                self._publish(m)\n                return\n            except Exception:\n                pass\n\n    def _publish(self, m):\n        self.ch.basic_publish(m)\n";
        let tree = parse(tree_sitter_python::LANGUAGE.into(), text);
        let body = span_of(text, "for _", "pass");
        let kinds = Kinds::of(tree.root_node(), &PYTHON);
        let declared = walk(tree.root_node(), text, &kinds, None).0;
        let calls = walk(tree.root_node(), text, &kinds, Some(&[body])).1;
        assert!(declared.iter().any(|(_, n)| *n == "_publish"));
        assert!(
            calls
                .iter()
                .any(|(at, n)| *n == "_publish" && body.start <= *at && *at < body.end)
        );
    }

    /// What `record` keeps, whether the declarations walk is needed or
    /// not: a loop calling names written nowhere else in the file calls
    /// nothing of it; one calling its own enclosing function (declared
    /// before the loop) or a helper after it does; a name written only in
    /// a comment elsewhere is looked up and not found.
    #[test]
    fn record_finds_calls_into_the_file_with_or_without_the_declarations_walk() {
        let loop_in = |text: &str, from: &str, to: &str| {
            let tree = parse(tree_sitter_python::LANGUAGE.into(), text);
            let body = span_of(text, from, to);
            let mut facts = Facts::default();
            facts.policies.push(crate::model::RetryPolicy::new(
                System::PythonLib("loop".into()),
                body,
                crate::model::Located::written(
                    crate::model::Attempts {
                        count: crate::model::AttemptCount::Finite(3),
                        written_as: "3".into(),
                    },
                    body,
                ),
            ));
            record(tree.root_node(), text, &PYTHON, 0, &mut facts);
            facts.loops_into_file == [body]
        };
        let only_here = "def run(c):\n    for _ in range(3):\n        try:\n            return c.post()\n        except E:\n            time.sleep(1)\n";
        assert!(!loop_in(only_here, "for _", "sleep(1)"));
        let recursive = "def post(c):\n    for _ in range(3):\n        try:\n            return c.post()\n        except E:\n            pass\n";
        assert!(loop_in(recursive, "for _", "pass"));
        let helper_after = "def run(c):\n    for _ in range(3):\n        try:\n            return send(c)\n        except E:\n            pass\n\ndef send(c):\n    return c.post()\n";
        assert!(loop_in(helper_after, "for _", "pass"));
        let in_comment = "# send is not declared here\ndef run(c):\n    for _ in range(3):\n        try:\n            return send(c)\n        except E:\n            pass\n";
        assert!(!loop_in(in_comment, "for _", "pass"));
    }

    #[test]
    fn a_go_loop_calling_other_packages_only_calls_nothing_of_the_file() {
        let text = "package main\n\nfunc main() { dial() }\n\nfunc dial() {}\n\nfunc start() {\n\tfor i := 0; i < 3; i++ {\n\t\tif err := profiler.Start(cfg); err == nil {\n\t\t\treturn\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n}\n";
        let tree = parse(tree_sitter_go::LANGUAGE.into(), text);
        let body = span_of(text, "for i", "\t}\n}");
        let kinds = Kinds::of(tree.root_node(), &GO);
        let declared = walk(tree.root_node(), text, &kinds, None).0;
        let calls = walk(tree.root_node(), text, &kinds, Some(&[body])).1;
        let names: Vec<&str> = declared.iter().map(|(_, n)| *n).collect();
        assert_eq!(names, ["main", "dial", "start"]);
        let inside: Vec<&str> = calls
            .iter()
            .filter(|(at, _)| body.start <= *at && *at < body.end)
            .map(|(_, n)| *n)
            .collect();
        assert_eq!(inside, ["Start", "Sleep"]);
        assert_eq!(last_segment("this.Send<T>"), Some("Send"));
        assert_eq!(last_segment("f[int]"), Some("f"));
    }
}
