//! A sarama config built by a function or method of the package and
//! handed to the producer: `cfg := newConfig()` (or
//! `sarama.NewSyncProducer(brokers, newConfig())`, `p.config()`), where `newConfig` makes `sarama.NewConfig()`, sets
//! `Producer.Retry.Max` and the rest, and returns it. The fields it sets
//! apply before those the caller sets on the result.
//!
//! A function of the same file is read here; one of another file of the
//! package is asked of the link step (`ValueWant::GoConfigFunc`), which
//! reads that file ([`function_fields`]) and gives each field's value
//! under `newConfig().Producer.Retry.Max`; the file is then read again
//! with them. A function that sets none of these fields leaves sarama's
//! defaults, as `NewConfig()` does.

use super::super::super::{Ctx, Pkg, args, eval, field, span};
use crate::extract::values::{self, Given};
use crate::model::values::ValueWant;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// The fields of a config the producer's policy reads.
pub(super) const FIELDS: &[&str] = &[
    "Producer.Retry.Max",
    "Producer.Retry.Backoff",
    "Producer.Retry.BackoffFunc",
    "Net.ReadTimeout",
    "Net.WriteTimeout",
    "Producer.Idempotent",
    "Producer.RequiredAcks",
];

/// The longest file read for a function's config.
const MAX_TEXT: usize = 512 * 1024;

/// A field's value as a number: a count, a duration in nanoseconds, 1 for
/// a `BackoffFunc` set, 1/0 for `Idempotent`, 0 for `RequiredAcks` of no
/// response (else 1); NaN when it cannot be read.
pub(super) fn value_of(ctx: &Ctx<'_>, field: &str, v: Node<'_>) -> Given {
    let text = ctx.text(v);
    match field {
        "Producer.Retry.Max" => (eval::count(ctx, v).map_or(f64::NAN, |n| n as f64), false),
        "Producer.Retry.Backoff" | "Net.ReadTimeout" | "Net.WriteTimeout" => (
            eval::duration(ctx, v).map_or(f64::NAN, |d| d.as_nanos() as f64),
            true,
        ),
        "Producer.Idempotent" => (
            match text {
                "true" => 1.0,
                "false" => 0.0,
                _ => f64::NAN,
            },
            false,
        ),
        "Producer.RequiredAcks" => (
            if text.ends_with("NoResponse") || text == "0" {
                0.0
            } else {
                1.0
            },
            false,
        ),
        _ => (1.0, false),
    }
}

/// The function of the package that builds the config `cfg`: a call
/// `f(..)` passed, or the call a name passed is bound to.
fn builder<'a>(ctx: &Ctx<'a>, cfg: Node<'a>) -> Option<(&'a str, Node<'a>)> {
    let call = match cfg.kind_name() {
        "call_expression" => cfg,
        "identifier" => ctx
            .binding(ctx.text(cfg), cfg.start_byte())
            .filter(|v| v.id() != cfg.id() && v.kind_name() == "call_expression")?,
        // `config.SaramaConfig`, a field the caller may fill and the file
        // defaults when nil (`if c.SaramaConfig == nil { c.SaramaConfig =
        // DefaultConfig() }`): the default's fields apply when it is left.
        "selector_expression" => {
            // The method that defaults it may be blanked by a pruned parse:
            // the file is read whole when a blanked body names the field.
            if let Some(f) = field(cfg, "field") {
                ctx.need_words
                    .borrow_mut()
                    .push(format!(".{}", ctx.text(f)));
            }
            eval::zero_default(ctx, cfg).filter(|v| v.kind_name() == "call_expression")?
        }
        _ => return None,
    };
    let f = field(call, "function")?;
    match f.kind_name() {
        "identifier" => Some((ctx.text(f), call)),
        // `p.config()`: a method of the receiver's type (`func (p
        // *Publisher) config() *sarama.Config`), on a plain name.
        "selector_expression"
            if field(f, "operand").is_some_and(|o| o.kind_name() == "identifier") =>
        {
            Some((ctx.text(field(f, "field")?), call))
        }
        _ => None,
    }
}

/// Whether `d` declares function or method `name`.
fn declares(ctx: &Ctx<'_>, d: Node<'_>, name: &str) -> bool {
    matches!(d.kind_name(), "function_declaration" | "method_declaration")
        && field(d, "name").is_some_and(|x| ctx.text(x) == name)
}

/// Calls `apply(field, value, written, at)` for each field the function
/// that builds `cfg` sets, in order: read here when it is of this file,
/// else as the link step gave them (recorded as wanted until it has).
pub(super) fn from_function(
    ctx: &Ctx<'_>,
    cfg: Node<'_>,
    apply: &mut dyn FnMut(&str, Given, &str, crate::source::Span),
) {
    let Some((name, call)) = builder(ctx, cfg) else {
        return;
    };
    let decl = ctx.nodes.iter().copied().find(|d| declares(ctx, *d, name));
    if let Some(decl) = decl {
        // Its body may be blanked by a pruned parse: read whole then.
        ctx.needs
            .borrow_mut()
            .push((decl.start_byte(), decl.end_byte()));
        for f in built_fields(ctx, decl) {
            let written = format!("{} = {} in {name}()", f.0, ctx.text(f.1));
            apply(f.0, value_of(ctx, f.0, f.1), &written, span(f.1));
        }
        return;
    }
    let mut given = false;
    for field in FIELDS {
        if let Some(v) = values::given(&format!("{name}().{field}")) {
            given = true;
            let written = if v.0.is_finite() && !v.1 && field.ends_with("Max") {
                format!("{field} = {} in {name}()", v.0)
            } else {
                format!("{field} set in {name}()")
            };
            apply(field, v, &written, span(call));
        }
    }
    if !given {
        values::want(ValueWant::GoConfigFunc {
            key: format!("{name}()"),
            name: name.to_string(),
        });
    }
}

/// The fields (of [`FIELDS`]) set in function `decl` on a variable bound
/// to `sarama.NewConfig()`, with their values.
fn built_fields<'a>(ctx: &Ctx<'a>, decl: Node<'a>) -> Vec<(&'a str, Node<'a>)> {
    ctx.fields
        .iter()
        .filter(|f| {
            decl.start_byte() <= f.value.start_byte() && f.value.end_byte() <= decl.end_byte()
        })
        .filter(|f| FIELDS.contains(&f.field))
        .filter(|f| {
            ctx.binding(f.recv, f.value.start_byte()).is_some_and(|v| {
                v.start_byte() >= decl.start_byte()
                    && matches!(ctx.pkg_call(v), Some((Pkg::Sarama, "NewConfig")))
                    && args(v).is_empty()
            })
        })
        .map(|f| (f.field, f.value))
        .collect()
}

/// The fields function `name` of the Go file `text` sets on the
/// `sarama.NewConfig()` it builds: (field, value as [`value_of`] gives
/// it, line from 1). Empty when the file has no such function.
pub fn function_fields(text: &str, name: &str) -> Vec<(String, Given, usize)> {
    if text.len() > MAX_TEXT || !text.contains("sarama") {
        return Vec::new();
    }
    let mut scratch = crate::model::Facts::default();
    let Some(tree) = crate::extract::tree_sitter::parse_source(
        tree_sitter_go::LANGUAGE.into(),
        text,
        "Go",
        "build",
        super::super::super::NAME,
        &mut scratch,
    ) else {
        return Vec::new();
    };
    let ctx = Ctx::new(text, tree.root_node());
    let Some(decl) = ctx.nodes.iter().copied().find(|d| declares(&ctx, *d, name)) else {
        return Vec::new();
    };
    built_fields(&ctx, decl)
        .into_iter()
        .map(|(f, v)| (f, value_of(&ctx, f, v), v.start_position().row + 1))
        // Acknowledgements other than none change nothing read.
        .filter(|(f, v, _)| *f != "Producer.RequiredAcks" || v.0 == 0.0)
        .map(|(f, v, line)| (f.to_string(), v, line))
        .collect()
}
