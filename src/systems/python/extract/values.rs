//! Numbers another module gives (issue 20): a name imported from a
//! module of the project (`from .config import MAX_RETRIES`,
//! `from app import config` then `config.MAX_RETRIES`) and a Django
//! setting (`from django.conf import settings`, `settings.RETRY_ATTEMPTS`).
//! A read records such a name ([`crate::extract::values::want`]); the
//! link step (`link::values`) finds the module's top-level binding
//! ([`module_numbers`]) and reads the file again with it given.

use super::{Args, Ctx, callee, eval, field};
use crate::extract::values;
use crate::model::Facts;
use crate::model::values::ValueWant;
use crate::systems::python::extract::Kind as _;
use tree_sitter::Node;

/// Top-level names read from one module, at most.
const MAX_NAMES: usize = 512;

/// The number the name `n` (an identifier or `alias.NAME`) has in the
/// module it comes from, when the link step gave it; else `None`, the
/// name recorded for it.
pub(super) fn external(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    let want = match n.kind_str() {
        "identifier" => {
            let key = ctx.text(n);
            let (module, name) = from_import(ctx, key)?;
            ValueWant::PyModule {
                key: key.into(),
                module,
                name,
            }
        }
        "attribute" => {
            let (obj, attr) = (field(n, "object")?, field(n, "attribute")?);
            if obj.kind_str() != "identifier" {
                return None;
            }
            let (o, a) = (ctx.text(obj), ctx.text(attr));
            let key = format!("{o}.{a}");
            match (from_import(ctx, o), module_alias(ctx, o)) {
                (Some((m, name)), _) if m == "django.conf" && name == "settings" => {
                    ValueWant::Django {
                        key,
                        name: a.into(),
                    }
                }
                (_, Some(module)) => ValueWant::PyModule {
                    key,
                    module,
                    name: a.into(),
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    if let Some((v, _)) = values::given(want.key()) {
        return Some(v);
    }
    values::want(want);
    None
}

/// Comments and line joins out of an import statement's text.
fn clean(t: &str) -> String {
    t.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['(', ')', '\\'], " ")
}

/// `from M import a, b as c`: the module and (name, local name) pairs.
fn from_parts(t: &str) -> Option<(String, Vec<(String, String)>)> {
    let t = clean(t);
    let rest = t.trim_start().strip_prefix("from")?;
    let (m, names) = rest.split_once(" import ")?;
    let pairs = names
        .split(',')
        .filter_map(|p| {
            let mut w = p.split_whitespace();
            let name = w.next()?;
            let local = match (w.next(), w.next()) {
                (Some("as"), Some(l)) => l,
                _ => name,
            };
            (name != "*").then(|| (name.to_string(), local.to_string()))
        })
        .collect();
    Some((m.trim().to_string(), pairs))
}

/// The module and name that `from M import name as local` binds to
/// `local`.
fn from_import(ctx: &Ctx<'_>, local: &str) -> Option<(String, String)> {
    ctx.import_nodes
        .iter()
        .filter(|n| n.kind_str() == "import_from_statement")
        .filter_map(|n| from_parts(ctx.text(*n)))
        .find_map(|(m, pairs)| {
            pairs
                .into_iter()
                .find(|(_, l)| l == local)
                .map(|(name, _)| (m.clone(), name))
        })
}

/// The module a name stands for: `import a.b as local`, `import local`,
/// `from P import local` (a module of package `P`).
fn module_alias(ctx: &Ctx<'_>, local: &str) -> Option<String> {
    for n in &ctx.import_nodes {
        let t = clean(ctx.text(*n));
        if n.kind_str() == "import_from_statement" {
            if let Some((m, pairs)) = from_parts(&t)
                && let Some((name, _)) = pairs.iter().find(|(_, l)| l == local)
            {
                let sep = if m.ends_with('.') { "" } else { "." };
                return Some(format!("{m}{sep}{name}"));
            }
            continue;
        }
        let Some(rest) = t.trim_start().strip_prefix("import") else {
            continue;
        };
        for p in rest.split(',') {
            let mut w = p.split_whitespace();
            let Some(m) = w.next() else { continue };
            match (w.next(), w.next()) {
                (Some("as"), Some(l)) if l == local => return Some(m.to_string()),
                (None, _) if m == local => return Some(m.to_string()),
                _ => {}
            }
        }
    }
    None
}

/// The numbers a module binds at its top level (`MAX_RETRIES = 5`,
/// `TIMEOUT: float = 2 * 60`, a name bound from another of them), in
/// order. A value read from the environment with a fallback written in
/// code (`int(os.environ.get("X", 3))`, `os.getenv("X", "3")`: `eval`;
/// django-environ's `env.int("X", default=3)`) is its fallback. Each with
/// its line (from 1).
pub fn module_numbers(text: &str) -> Vec<(String, f64, usize)> {
    let mut scratch = Facts::default();
    let Some(tree) = crate::extract::tree_sitter::parse_source(
        tree_sitter_python::LANGUAGE.into(),
        text,
        "Python",
        "run",
        super::NAME,
        &mut scratch,
    ) else {
        return Vec::new();
    };
    let root = tree.root_node();
    let ctx = Ctx::new(text, root);
    let mut out: Vec<(String, f64, usize)> = Vec::new();
    let mut cursor = root.walk();
    for stmt in root.named_children(&mut cursor) {
        if out.len() >= MAX_NAMES {
            break;
        }
        if stmt.kind_str() != "expression_statement" {
            continue;
        }
        let Some(a) = stmt.named_child(0).filter(|a| a.kind_str() == "assignment") else {
            continue;
        };
        let (Some(l), Some(r)) = (field(a, "left"), field(a, "right")) else {
            continue;
        };
        if l.kind_str() != "identifier" {
            continue;
        }
        if let Some(v) = eval::number(&ctx, r).or_else(|| env_int(&ctx, r)) {
            out.push((ctx.text(l).to_string(), v, l.start_position().row + 1));
        }
    }
    out
}

/// django-environ's `env.int("X", default=3)` (and `float`): its
/// default.
fn env_int(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    if n.kind_str() != "call" {
        return None;
    }
    let (full, last) = callee(ctx, n);
    if !matches!(last, "int" | "float") || !full.contains('.') {
        return None;
    }
    eval::number(ctx, Args::of(ctx, n).kw("default")?)
}

#[cfg(test)]
mod tests {
    use super::{from_parts, module_numbers};

    #[test]
    fn imports_read_from_their_text() {
        assert_eq!(
            from_parts("from .config import (\n    A,  # first\n    B as C,\n)"),
            Some((
                ".config".to_string(),
                vec![
                    ("A".to_string(), "A".to_string()),
                    ("B".to_string(), "C".to_string())
                ]
            ))
        );
        assert_eq!(from_parts("import os"), None);
    }

    #[test]
    fn top_level_numbers_of_a_module() {
        let text = "import os\nBASE = 2\nMAX_RETRIES = BASE * 3\nTIMEOUT: float = 1.5\nRETRIES = int(os.environ.get('RETRIES', '4'))\nOTHER = os.environ['X']\ndef f():\n    INNER = 9\n";
        let got: Vec<(String, f64, usize)> = module_numbers(text);
        let want = [
            ("BASE", 2.0, 2),
            ("MAX_RETRIES", 6.0, 3),
            ("TIMEOUT", 1.5, 4),
            ("RETRIES", 4.0, 5),
        ];
        assert_eq!(got, want.map(|(n, v, l)| (n.to_string(), v, l)).to_vec());
    }
}
