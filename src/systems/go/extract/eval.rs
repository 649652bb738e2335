//! Values of Go expressions, as far as one file shows them: integers,
//! floats, `time.Duration` expressions (`5 * time.Second`,
//! `time.Duration(n) * time.Millisecond`), and strings (literals,
//! constants, `+`, `fmt.Sprintf`). Names are followed to their binding,
//! at most [`MAX_DEPTH`] deep.

use super::{Ctx, MAX_DEPTH, Pkg, field, named_children};
use crate::systems::go::extract::KindName;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;
pub use values::package_numbers;

mod values;

/// A part of a string that the file does not show (an argument of
/// `fmt.Sprintf`, a variable): hosts containing it are not named.
pub const UNKNOWN: &str = "\u{1}";

/// A number, and whether it is a `time.Duration` (then in nanoseconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num {
    pub value: f64,
    pub duration: bool,
}

/// The number an expression evaluates to.
pub fn num(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Num> {
    num_at(ctx, n, 0)
}

fn num_at(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<Num> {
    if depth > MAX_DEPTH {
        return None;
    }
    let plain = |value: f64| {
        Some(Num {
            value,
            duration: false,
        })
    };
    match n.kind_name() {
        "int_literal" => plain(parse_int(ctx.text(n))? as f64),
        "float_literal" => plain(ctx.text(n).replace('_', "").parse().ok()?),
        "parenthesized_expression" => num_at(ctx, *named_children(n).first()?, depth + 1),
        "unary_expression" => {
            let v = num_at(ctx, field(n, "operand")?, depth + 1)?;
            match ctx.text(n).trim_start().chars().next() {
                Some('-') => Some(Num {
                    value: -v.value,
                    ..v
                }),
                Some('+') => Some(v),
                _ => None,
            }
        }
        "identifier" => {
            // A name no declaration of the file binds: another file's
            // (`link::values`).
            let Some(v) = ctx.binding(ctx.text(n), n.start_byte()) else {
                return values::external(ctx, n);
            };
            if v.id() == n.id() {
                return None;
            }
            num_at(ctx, v, depth + 1)
        }
        "selector_expression" => {
            let Some((pkg, name)) = ctx.pkg_ref(n) else {
                // A field the file reads (`cfg.RetryMax`): the default the
                // file gives it when unset, else its tag's default
                // (`link::values`).
                if let Some(v) = zero_default(ctx, n) {
                    return num_at(ctx, v, depth + 1);
                }
                return values::external(ctx, n);
            };
            if pkg != Pkg::Time {
                return None;
            }
            let ns = match name {
                "Nanosecond" => 1.0,
                "Microsecond" => 1e3,
                "Millisecond" => 1e6,
                "Second" => 1e9,
                "Minute" => 60e9,
                "Hour" => 3600e9,
                _ => return None,
            };
            Some(Num {
                value: ns,
                duration: true,
            })
        }
        "call_expression" => {
            if let Some(v) = viper_default(ctx, n) {
                let inner = num_at(ctx, v, depth + 1)?;
                let getter = field(field(n, "function")?, "field").map(|f| ctx.text(f));
                return Some(Num {
                    value: inner.value,
                    duration: inner.duration || getter == Some("GetDuration"),
                });
            }
            // Conversions: `time.Duration(n)`, `int(n)`, `uint64(n)`, `float64(n)`.
            let f = field(n, "function")?;
            let a = *super::args(n).first()?;
            let inner = num_at(ctx, a, depth + 1)?;
            match ctx.text(f) {
                t if ctx.pkg_ref(f) == Some((Pkg::Time, "Duration")) || t == "Duration" => {
                    Some(Num {
                        value: inner.value,
                        duration: true,
                    })
                }
                "int" | "int32" | "int64" | "uint" | "uint32" | "uint64" | "float64" => Some(inner),
                _ => None,
            }
        }
        "binary_expression" => {
            let l = num_at(ctx, field(n, "left")?, depth + 1)?;
            let r = num_at(ctx, field(n, "right")?, depth + 1)?;
            let op = ctx.text(field(n, "operator")?);
            let duration = l.duration || r.duration;
            let value = match op {
                "*" => l.value * r.value,
                "/" if r.value != 0.0 => {
                    if l.duration && r.duration {
                        return Some(Num {
                            value: (l.value / r.value).trunc(),
                            duration: false,
                        });
                    }
                    l.value / r.value
                }
                "+" => l.value + r.value,
                "-" => l.value - r.value,
                "<<" if (0.0..63.0).contains(&r.value) => l.value * 2f64.powi(r.value as i32),
                _ => return None,
            };
            Some(Num { value, duration })
        }
        _ => None,
    }
}

/// The default a key read from viper has in this file:
/// `viper.GetInt("retry.max")` (or `GetInt64`, `GetUint`, `GetFloat64`,
/// `GetDuration`, on the package or on a `*viper.Viper` of the file) is
/// the value of the file's `viper.SetDefault("retry.max", 3)` on the same
/// receiver. A config file or the environment may set the key otherwise
/// (spf13/viper, commit 528f7416c4b56a4948673984b190bf8713f0c3c4,
/// `viper.go` `find`: an override, a flag, the environment, the config
/// file, the key/value store, then the default); the default is read as
/// the value, as `os.getenv`'s fallback is.
fn viper_default<'a>(ctx: &Ctx<'a>, call: Node<'_>) -> Option<Node<'a>> {
    let f = field(call, "function")?;
    if f.kind_name() != "selector_expression" {
        return None;
    }
    let getter = ctx.text(field(f, "field")?);
    if !matches!(
        getter,
        "GetInt"
            | "GetInt32"
            | "GetInt64"
            | "GetUint"
            | "GetUint32"
            | "GetUint64"
            | "GetFloat64"
            | "GetDuration"
    ) {
        return None;
    }
    let recv = field(f, "operand")?;
    let on_pkg = ctx.pkg_ref(f).is_some_and(|(p, _)| p == Pkg::Viper);
    if !on_pkg && !ctx.imports(Pkg::Viper) {
        return None;
    }
    let key = string(ctx, *super::args(call).first()?)?;
    let recv = ctx.text(recv);
    ctx.calls.iter().find_map(|&c| {
        let g = field(c, "function")?;
        if g.kind_name() != "selector_expression"
            || ctx.text(field(g, "field")?) != "SetDefault"
            || ctx.text(field(g, "operand")?) != recv
        {
            return None;
        }
        let a = super::args(c);
        let (&k, &v) = (a.first()?, a.get(1)?);
        (string(ctx, k).as_deref() == Some(key.as_str())).then_some(v)
    })
}

/// The default a field takes in this file when left unset: `if
/// c.MaxRetries == 0 { c.MaxRetries = DefaultMaxRetries }` (or `<= 0`)
/// gives `c.config.MaxRetries` the value `DefaultMaxRetries` (the field
/// matched by its name: the config is often reached through another
/// receiver where it is read). A caller may set the field otherwise; the
/// default is read as the value, as viper's and a tag's are. A pointer
/// field defaulted when nil (`if c.Cfg == nil { c.Cfg = Default() }`,
/// ThreeDotsLabs/watermill-kafka 8bccba2f `PublisherConfig.setDefaults`)
/// gives its default the same way.
pub(super) fn zero_default<'a>(ctx: &Ctx<'a>, sel: Node<'_>) -> Option<Node<'a>> {
    let name = ctx.text(field(sel, "field")?);
    let at = *ctx
        .zero_defaults
        .get_or_init(|| zero_defaults(ctx))
        .get(name)?;
    default_set_in(ctx, *ctx.ifs.get(at)?).map(|(_, v)| v)
}

/// [`zero_default`] of every field name, from one pass over the file's
/// `if` statements: the index of the first one in source order giving a
/// name a default. Asked of every field a value names (the loop reader
/// asks it of every `range` over a field), a walk of all the file's
/// nodes per question was a fifth of the Go reader on envoyproxy/gateway
/// d32f2829 (`controller.go`, 30 M instructions).
fn zero_defaults(ctx: &Ctx<'_>) -> HashMap<Box<str>, usize> {
    let mut out = HashMap::new();
    for (at, &i) in ctx.ifs.iter().enumerate() {
        if let Some((name, _)) = default_set_in(ctx, i) {
            out.entry(name.into()).or_insert(at);
        }
    }
    out
}

/// The field an `if` gives a default when zero, and the default: `if
/// c.MaxRetries == 0 { c.MaxRetries = DefaultMaxRetries }` gives
/// `MaxRetries` and `DefaultMaxRetries`.
fn default_set_in<'a>(ctx: &Ctx<'a>, i: Node<'a>) -> Option<(&'a str, Node<'a>)> {
    let k = field(i, "condition").filter(|k| k.kind_name() == "binary_expression")?;
    let (l, r) = (field(k, "left")?, field(k, "right")?);
    if !matches!(ctx.text(field(k, "operator")?), "==" | "<=")
        || !matches!(ctx.text(r), "0" | "nil")
        || l.kind_name() != "selector_expression"
    {
        return None;
    }
    let name = ctx.text(field(l, "field")?);
    let block = field(i, "consequence")?;
    let stmts: Vec<Node<'a>> = super::op_sorts::statements(block);
    let v = stmts.into_iter().find_map(|a| {
        if a.kind_name() != "assignment_statement"
            || field(a, "operator").map(|o| ctx.text(o)) != Some("=")
            || field(a, "left").map(|x| ctx.text(x)) != Some(ctx.text(l))
        {
            return None;
        }
        named_children(field(a, "right")?).first().copied()
    })?;
    Some((name, v))
}

fn parse_int(t: &str) -> Option<i64> {
    let t = t.replace('_', "");
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    t.parse().ok()
}

/// A non-negative integer.
pub fn count(ctx: &Ctx<'_>, n: Node<'_>) -> Option<u64> {
    let v = num(ctx, n)?;
    (v.value >= 0.0 && v.value.fract() == 0.0 && v.value < 1e18).then_some(v.value as u64)
}

/// A float.
pub fn float(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    num(ctx, n).map(|v| v.value)
}

/// A duration: a `time.Duration` expression (an untyped constant is
/// nanoseconds, as Go reads it).
pub fn duration(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    let v = num(ctx, n)?;
    if v.value < 0.0 || !v.value.is_finite() {
        return None;
    }
    Some(Duration::from_nanos(v.value.min(u64::MAX as f64) as u64))
}

/// A string an expression evaluates to, with [`UNKNOWN`] for parts the
/// file does not show. `None` when nothing of it is known.
pub fn string(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    string_at(ctx, n, 0)
}

fn string_at(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_name() {
        "interpreted_string_literal" => Some(unquote(ctx.text(n))),
        "raw_string_literal" => Some(ctx.text(n).trim_matches('`').to_string()),
        "parenthesized_expression" => string_at(ctx, *named_children(n).first()?, depth + 1),
        "identifier" => {
            let v = ctx.binding(ctx.text(n), n.start_byte())?;
            if v.id() == n.id() {
                return None;
            }
            string_at(ctx, v, depth + 1)
        }
        "binary_expression" if field(n, "operator").is_some_and(|o| ctx.text(o) == "+") => {
            let part = |x: Option<Node<'_>>| {
                x.and_then(|x| string_at(ctx, x, depth + 1))
                    .unwrap_or_else(|| UNKNOWN.to_string())
            };
            let l = part(field(n, "left"));
            let r = part(field(n, "right"));
            (l != UNKNOWN || r != UNKNOWN).then(|| l + &r)
        }
        "call_expression" if ctx.pkg_call(n) == Some((Pkg::Fmt, "Sprintf")) => {
            let a = super::args(n);
            let f = string_at(ctx, *a.first()?, depth + 1)?;
            Some(sprintf(ctx, &f, &a[1..], depth))
        }
        _ => None,
    }
}

/// `fmt.Sprintf(format, args...)` with the verbs `%s`, `%d`, `%v` filled
/// from arguments the file shows, [`UNKNOWN`] for the others.
fn sprintf(ctx: &Ctx<'_>, f: &str, args: &[Node<'_>], depth: usize) -> String {
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    let mut i = 0;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        // Flags and width, then the verb.
        while chars
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '#' | ' ' | '.'))
        {
            chars.next();
        }
        chars.next();
        let v = args.get(i).and_then(|a| {
            string_at(ctx, *a, depth + 1).or_else(|| {
                num(ctx, *a)
                    .filter(|n| !n.duration && n.value.fract() == 0.0)
                    .map(|n| format!("{}", n.value as i64))
            })
        });
        out.push_str(v.as_deref().unwrap_or(UNKNOWN));
        i += 1;
    }
    out
}

/// The text of an interpreted string literal (`"a\tb"`), common escapes
/// decoded.
pub fn unquote(lit: &str) -> String {
    let inner = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(lit);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The host of an HTTP(S) URL whose scheme and host are known
/// ([`crate::extract::url_host`]).
pub fn url_host(url: &str) -> Option<String> {
    crate::extract::url_host::url_host(url, UNKNOWN)
}

/// The host of `host[:port][/...]`, when it is known and not local
/// ([`crate::extract::url_host`]).
pub fn host_of(rest: &str) -> Option<String> {
    crate::extract::url_host::host_of(rest, UNKNOWN)
}
