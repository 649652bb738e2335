//! One template action's pipeline (`.Values.a | default 3 | quote`):
//! tokens, a small tree, and its value. Only what charts use for settings
//! is evaluated; any other function gives an unknown value.

use super::values::{V, Val, merge};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// `.a.b`, `$.a`, `$x.a`, `.`, `$`: a variable (empty: `.`) and the
    /// fields after it.
    Path(Option<String>, Vec<String>),
    Ident(String),
    Str(String),
    Num(String),
    LParen,
    RParen,
    Pipe,
    Declare,
    Assign,
    Comma,
}

/// The action's tokens; `None` when it holds what no chart setting needs
/// (a raw string we cannot lex).
pub fn lex(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'(' => {
                out.push(Tok::LParen);
                i += 1
            }
            b')' => {
                out.push(Tok::RParen);
                i += 1
            }
            b'|' => {
                out.push(Tok::Pipe);
                i += 1
            }
            b',' => {
                out.push(Tok::Comma);
                i += 1
            }
            b':' if b.get(i + 1) == Some(&b'=') => {
                out.push(Tok::Declare);
                i += 2
            }
            b'=' => {
                out.push(Tok::Assign);
                i += 1
            }
            b'"' => {
                let mut v = String::new();
                i += 1;
                loop {
                    match b.get(i)? {
                        b'"' => break,
                        b'\\' => {
                            let e = *b.get(i + 1)?;
                            v.push(match e {
                                b'n' => '\n',
                                b't' => '\t',
                                other => other as char,
                            });
                            i += 2;
                        }
                        _ => {
                            let ch = s[i..].chars().next()?;
                            v.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                i += 1;
                out.push(Tok::Str(v));
            }
            b'`' => {
                let end = s[i + 1..].find('`')?;
                out.push(Tok::Str(s[i + 1..i + 1 + end].to_string()));
                i += end + 2;
            }
            b'.' | b'$' => {
                let start = i;
                let var = if c == b'$' {
                    i += 1;
                    let n = ident_len(&b[i..]);
                    let name = s[i..i + n].to_string();
                    i += n;
                    Some(name)
                } else {
                    None
                };
                let mut fields = Vec::new();
                while b.get(i) == Some(&b'.') {
                    i += 1;
                    let n = ident_len(&b[i..]);
                    if n > 0 {
                        fields.push(s[i..i + n].to_string());
                    }
                    i += n;
                }
                if i == start {
                    return None;
                }
                out.push(Tok::Path(var, fields));
            }
            b'-' | b'0'..=b'9' => {
                let n = b[i + 1..]
                    .iter()
                    .take_while(|x| x.is_ascii_alphanumeric() || **x == b'.')
                    .count();
                out.push(Tok::Num(s[i..i + 1 + n].to_string()));
                i += 1 + n;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let n = ident_len(&b[i..]);
                out.push(Tok::Ident(s[i..i + n].to_string()));
                i += n;
            }
            b'\'' => {
                // A rune literal: not used by settings.
                let end = s[i + 1..].find('\'')?;
                out.push(Tok::Str(s[i + 1..i + 1 + end].to_string()));
                i += end + 2;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn ident_len(b: &[u8]) -> usize {
    b.iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count()
}

/// What an expression reads: the dot, the variables in scope, `$`.
pub struct Scope<'a> {
    pub dot: &'a Val,
    pub root: &'a Val,
    pub vars: &'a [(String, Val)],
}

/// Evaluate a pipeline (`a | f x | g`); `None` when the tokens are not one.
pub fn pipeline(toks: &[Tok], sc: &Scope<'_>) -> Option<Val> {
    let mut prev: Option<Val> = None;
    for cmd in split_top(toks, &Tok::Pipe) {
        prev = Some(command(cmd, prev, sc)?);
    }
    prev
}

/// The indent of the block a pipeline's output starts on a line of its
/// own with: `N` when its last command is `nindent N`
/// (`labels: {{- include "common.labels.standard" . | nindent 4 }}`).
pub fn block_indent(toks: &[Tok]) -> Option<usize> {
    match split_top(toks, &Tok::Pipe).last()? {
        [Tok::Ident(f), Tok::Num(n)] if f == "nindent" => {
            n.parse::<usize>().ok().map(|n| n.min(256))
        }
        _ => None,
    }
}

/// `toks` split at every top-level `sep` (not inside parentheses).
fn split_top<'t>(toks: &'t [Tok], sep: &Tok) -> Vec<&'t [Tok]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::LParen => depth += 1,
            Tok::RParen => depth = depth.saturating_sub(1),
            t if depth == 0 && t == sep => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out
}

/// The operands of a command: each a token or a parenthesised pipeline.
fn operands(toks: &[Tok]) -> Option<Vec<&[Tok]>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::LParen {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match toks.get(j)? {
                    Tok::LParen => depth += 1,
                    Tok::RParen => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push(&toks[i..=j]);
            i = j + 1;
        } else {
            out.push(&toks[i..=i]);
            i += 1;
        }
    }
    Some(out)
}

fn operand(t: &[Tok], sc: &Scope<'_>) -> Option<Val> {
    match t {
        [Tok::LParen, inner @ .., Tok::RParen] => pipeline(inner, sc),
        [Tok::Path(var, fields)] => {
            let mut v = match var.as_deref() {
                None => sc.dot.clone(),
                Some("") => sc.root.clone(),
                Some(name) => sc
                    .vars
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .map_or_else(Val::unknown, |(_, v)| v.clone()),
            };
            for f in fields {
                v = v.field(f);
            }
            Some(v)
        }
        [Tok::Str(s)] => Some(Val::new(V::Str(s.clone()))),
        [Tok::Num(n)] => Some(Val::new(match n.parse::<i64>() {
            Ok(i) => V::Int(i),
            Err(_) => n.parse::<f64>().map_or(V::Unknown, V::Float),
        })),
        [Tok::Ident(w)] if w == "true" || w == "false" => Some(Val::new(V::Bool(w == "true"))),
        [Tok::Ident(w)] if w == "nil" => Some(Val::null()),
        [Tok::Ident(f)] => call(f, Vec::new(), sc),
        _ => None,
    }
}

fn command(toks: &[Tok], prev: Option<Val>, sc: &Scope<'_>) -> Option<Val> {
    let ops = operands(toks)?;
    let (first, rest) = ops.split_first()?;
    match first {
        [Tok::Ident(f)] if !matches!(f.as_str(), "true" | "false" | "nil") => {
            let mut args = rest
                .iter()
                .map(|o| operand(o, sc))
                .collect::<Option<Vec<_>>>()?;
            args.extend(prev);
            call(f, args, sc)
        }
        _ if rest.is_empty() && prev.is_none() => operand(first, sc),
        _ => None,
    }
}

fn num(v: &Val) -> Option<f64> {
    match &v.v {
        V::Int(i) => Some(*i as f64),
        V::Float(f) => Some(*f),
        V::Str(s) => s.trim().parse().ok(),
        V::Bool(b) => Some(f64::from(u8::from(*b))),
        V::Null => Some(0.0),
        _ => None,
    }
}

/// A function of Go templates or Sprig, with the piped value as the last
/// argument. Keeps the origin of the value it passes on.
fn call(f: &str, args: Vec<Val>, _sc: &Scope<'_>) -> Option<Val> {
    let unknown_in = args.iter().any(|a| a.v == V::Unknown);
    let last = args.last().cloned();
    let keep = |v: V, from: &Val| Val { v, at: from.at };
    Some(match (f, args.as_slice()) {
        ("default", [d, v]) => match v.truthy() {
            Some(true) => v.clone(),
            Some(false) => d.clone(),
            None => Val::unknown(),
        },
        // Sprig's `quote` is Go's `%q` of each argument's print; a
        // missing value quotes as nothing.
        ("quote" | "squote" | "toString", [v]) => match v.print() {
            Some(s) if f == "toString" => keep(V::Str(s), v),
            Some(_) if v.v == V::Null => keep(V::Str(String::new()), v),
            Some(s) if f == "quote" => keep(V::Str(format!("{s:?}")), v),
            Some(s) => keep(V::Str(format!("'{s}'")), v),
            None => Val::unknown(),
        },
        ("int" | "int64", [v]) => match num(v) {
            Some(n) => keep(V::Int(n as i64), v),
            None => Val::unknown(),
        },
        ("float64", [v]) => match num(v) {
            Some(n) => keep(V::Float(n), v),
            None => Val::unknown(),
        },
        ("toYaml", [v]) => match super::values::to_yaml(v) {
            Some(s) => keep(V::Str(s), v),
            None => Val::unknown(),
        },
        ("nindent" | "indent", [n, v]) => {
            let (Some(n), Some(s)) = (num(n), v.print()) else {
                return Some(Val::unknown());
            };
            let pad = " ".repeat((n as usize).min(256));
            let body = s
                .lines()
                .map(|l| format!("{pad}{l}"))
                .collect::<Vec<_>>()
                .join("\n");
            let s = if f == "nindent" {
                format!("\n{body}")
            } else {
                body
            };
            keep(V::Str(s), v)
        }
        ("trim", [v]) => match v.print() {
            Some(s) => keep(V::Str(s.trim().to_string()), v),
            None => Val::unknown(),
        },
        ("lower" | "upper", [v]) => match v.print() {
            Some(s) if f == "lower" => keep(V::Str(s.to_lowercase()), v),
            Some(s) => keep(V::Str(s.to_uppercase()), v),
            None => Val::unknown(),
        },
        ("required", [_, v]) => v.clone(),
        ("not", [v]) => match v.truthy() {
            Some(b) => Val::new(V::Bool(!b)),
            None => Val::unknown(),
        },
        ("and" | "or", [_, ..]) => {
            // Go returns the first falsy (and) or truthy (or) argument.
            let want = f == "or";
            for a in &args {
                match a.truthy() {
                    None => return Some(Val::unknown()),
                    Some(t) if t == want => return Some(a.clone()),
                    _ => {}
                }
            }
            last.unwrap_or_else(Val::null)
        }
        ("eq" | "ne", [a, rest @ ..]) if !rest.is_empty() => {
            if unknown_in {
                return Some(Val::unknown());
            }
            let same = rest.iter().any(|b| same(a, b));
            Val::new(V::Bool(same == (f == "eq")))
        }
        ("lt" | "le" | "gt" | "ge", [a, b]) => match (num(a), num(b)) {
            (Some(x), Some(y)) if !unknown_in => Val::new(V::Bool(match f {
                "lt" => x < y,
                "le" => x <= y,
                "gt" => x > y,
                _ => x >= y,
            })),
            _ => Val::unknown(),
        },
        ("empty", [v]) => match v.truthy() {
            Some(t) => Val::new(V::Bool(!t)),
            None => Val::unknown(),
        },
        ("hasKey", [m, k]) => match (&m.v, &k.v) {
            (V::Map(m), V::Str(k)) => Val::new(V::Bool(m.iter().any(|(x, _)| x == k))),
            _ => Val::unknown(),
        },
        ("coalesce", _) => {
            for a in &args {
                match a.truthy() {
                    None => return Some(Val::unknown()),
                    Some(true) => return Some(a.clone()),
                    _ => {}
                }
            }
            Val::null()
        }
        ("ternary", [a, b, c]) => match c.truthy() {
            Some(true) => a.clone(),
            Some(false) => b.clone(),
            None => Val::unknown(),
        },
        ("merge" | "mergeOverwrite", [dst, src, ..]) if !unknown_in => {
            if f == "merge" {
                merge(src, dst)
            } else {
                merge(dst, src)
            }
        }
        ("index", [m, keys @ ..]) if !keys.is_empty() => {
            let mut v = m.clone();
            for k in keys {
                v = match (&v.v, &k.v) {
                    (V::Map(_), V::Str(k)) => v.field(k),
                    // Go's `index` of a missing map is nil.
                    (V::Null, _) => Val::null(),
                    (V::List(l), V::Int(i)) => usize::try_from(*i)
                        .ok()
                        .and_then(|i| l.get(i).cloned())
                        .unwrap_or_else(Val::null),
                    _ => Val::unknown(),
                };
            }
            v
        }
        ("len", [v]) => match &v.v {
            V::List(l) => Val::new(V::Int(l.len() as i64)),
            V::Map(m) => Val::new(V::Int(m.len() as i64)),
            V::Str(s) => Val::new(V::Int(s.len() as i64)),
            _ => Val::unknown(),
        },
        // Helpers (`include`, `template`), `tpl`, `.Release`, lookups and
        // whatever else: what they give is not known without Helm.
        _ => Val::unknown(),
    })
}

/// `eq`: a missing value (nil) is taken as the other side's zero value,
/// as Helm prints it (a chart that renders compares a set value).
fn same(a: &Val, b: &Val) -> bool {
    let zero = |v: &V| match v {
        V::Str(s) => s.is_empty(),
        V::Int(i) => *i == 0,
        V::Float(f) => *f == 0.0,
        V::Bool(b) => !b,
        V::Null => true,
        _ => false,
    };
    match (&a.v, &b.v) {
        (V::Null, x) | (x, V::Null) => zero(x),
        (V::Int(x), V::Float(y)) | (V::Float(y), V::Int(x)) => (*x as f64) == *y,
        (x, y) => x == y,
    }
}
