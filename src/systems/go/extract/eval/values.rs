//! Numbers another file of the package or module gives (issue 21): a
//! package-level constant or variable declared in a sibling file
//! (`const maxRetries = 5` in `config.go`, read as `RetryMax:
//! maxRetries` in `client.go`), and a struct field the file reads but
//! does not set whose tag gives its default (`RetryMax int
//! `envconfig:"RETRY_MAX" default:"3"``). A read records the name
//! ([`crate::extract::values::want`]); the link step (`link::values`)
//! finds its value ([`package_numbers`], the tag defaults of
//! `env_fields`) and reads the file again with it given.

use super::super::{Ctx, field};
use super::Num;
use crate::extract::values;
use crate::model::values::ValueWant;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Names Go predeclares: never another file's.
const PREDECLARED: &[&str] = &["true", "false", "nil", "iota", "_"];

/// The number a name the file does not bind has in another file, when
/// the link step gave it; else `None`, the name recorded for it.
pub(super) fn external(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Num> {
    let want = match n.kind_name() {
        "identifier" => {
            let name = ctx.text(n);
            let at = n.start_byte();
            // A parameter of a function around it is no package name.
            if PREDECLARED.contains(&name)
                || ctx
                    .functions
                    .iter()
                    .any(|(s, e, ps)| *s <= at && at < *e && ps.contains(&name))
            {
                return None;
            }
            ValueWant::GoPackage {
                key: name.into(),
                name: name.into(),
            }
        }
        "selector_expression" => {
            let operand = field(n, "operand")?;
            let name = ctx.text(field(n, "field")?);
            // `pkg.Name` of an imported package is not a field; a field
            // the file sets somewhere (`cfg.RetryMax = n`) is not the tag's
            // default.
            let key: String = ctx.text(n).split_whitespace().collect();
            if operand.kind_name() == "identifier" && imported(ctx, ctx.text(operand))
                || ctx.fields.iter().any(|f| {
                    key.strip_prefix(f.recv).and_then(|r| r.strip_prefix('.')) == Some(f.field)
                })
            {
                return None;
            }
            ValueWant::GoField {
                key,
                field: name.into(),
            }
        }
        _ => return None,
    };
    if let Some((value, duration)) = values::given(want.key()) {
        return Some(Num { value, duration });
    }
    values::want(want);
    None
}

/// Whether `name` is the name of a package the file imports (its alias,
/// else the last element of its path).
fn imported(ctx: &Ctx<'_>, name: &str) -> bool {
    ctx.import_specs.iter().any(|s| {
        if let Some(a) = field(*s, "name") {
            return ctx.text(a) == name;
        }
        field(*s, "path").is_some_and(|p| {
            let path = ctx.text(p).trim_matches(['"', '`']);
            let last = path.rsplit('/').next().unwrap_or(path);
            // `gopkg.in/yaml.v3` is `yaml`; `go-redis` is `redis`.
            last == name
                || last.split('.').next() == Some(name)
                || last.rsplit('-').next() == Some(name)
        })
    })
}

/// Package-level declarations read from one file, at most.
const MAX_NAMES: usize = 64;

/// The values a file of the package declares at its top level for the
/// names `names` (`const name = 5`, `name = 3 * time.Second` in a `const
/// (..)` or `var (..)` block, `var name int = 5`): each written
/// expression read as the reader reads its own (a constant, a
/// `time.Duration` expression; a name of that file is not followed),
/// each with its line (from 1).
pub fn package_numbers(text: &str, names: &[&str]) -> Vec<(String, values::Given, usize)> {
    let mut out = Vec::new();
    let mut depth: i32 = 0;
    let mut block = false;
    for (i, line) in text.lines().enumerate() {
        if out.len() >= MAX_NAMES {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let t = code.trim();
        if depth == 0 {
            let (kw, rest) = match t.split_once(char::is_whitespace) {
                Some((k @ ("const" | "var"), r)) => (Some(k), r.trim()),
                _ => (None, t),
            };
            if kw.is_some() && rest.starts_with('(') {
                block = true;
            } else if (kw.is_some() || block)
                && let Some((name, v)) = spec(rest, names)
            {
                out.push((name, v, i + 1));
            }
            if block && t.starts_with(')') {
                block = false;
            }
        }
        if !block {
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            depth = depth.max(0);
        }
    }
    out
}

/// `name [Type] = expr` of one of `names`, its value.
fn spec(t: &str, names: &[&str]) -> Option<(String, values::Given)> {
    let (lhs, expr) = t.split_once('=')?;
    if expr.starts_with('=') || lhs.ends_with([':', '!', '<', '>']) {
        return None;
    }
    let name = lhs.split_whitespace().next()?;
    if !names.contains(&name) || lhs.contains(',') {
        return None;
    }
    let expr = expr.trim();
    if expr.is_empty() || expr.len() > 200 {
        return None;
    }
    let v = number_of(expr)?;
    Some((name.to_string(), (v.value, v.duration)))
}

/// The value of one expression, read alone.
fn number_of(expr: &str) -> Option<Num> {
    let src = format!("package p\n\nimport \"time\"\n\nvar x = {expr}\n");
    let mut scratch = crate::model::Facts::default();
    let tree = crate::extract::tree_sitter::parse_source(
        tree_sitter_go::LANGUAGE.into(),
        &src,
        "Go",
        "build",
        super::super::NAME,
        &mut scratch,
    )?;
    if tree.root_node().has_error() {
        return None;
    }
    let ctx = Ctx::new(&src, tree.root_node());
    let value = ctx.bindings.get("x").and_then(|v| v.first().copied())?;
    super::num(&ctx, value)
}

#[cfg(test)]
mod tests {
    use super::package_numbers;

    #[test]
    fn package_level_numbers_of_another_file() {
        let text = r#"package client

import "time"

const maxRetries = 7 // retries

const (
	waitMin    = 200 * time.Millisecond
	other      = "x"
)

var waitMax time.Duration = 5 * time.Second

func f() {
	maxRetries := 2
	_ = maxRetries
}
"#;
        let got = package_numbers(text, &["maxRetries", "waitMin", "waitMax", "other"]);
        assert_eq!(
            got,
            [
                ("maxRetries".to_string(), (7.0, false), 5),
                ("waitMin".to_string(), (2e8, true), 8),
                ("waitMax".to_string(), (5e9, true), 12),
            ]
        );
        // A name not asked for is not read.
        assert!(package_numbers(text, &["nothing"]).is_empty());
    }
}
