//! The VCL reader: one `.vcl` file in, facts out.
//!
//! Semantics (varnish-cache 8.0, `bin/varnishd/cache/cache_fetch.c`,
//! `cache_backend.c`, `http1/cache_http1_fetch.c`, `builtin.vcl`):
//!
//! - A backend fetch is retried only when the VCL says `return (retry)` in
//!   `vcl_backend_response` (a response arrived: the retry is decided on
//!   it, usually on `beresp.status`) or `vcl_backend_error` (the fetch
//!   failed: no connection, a first-byte timeout, a reset). The built-in
//!   VCL never retries.
//! - Each retry counts in `bereq.retries`; past `max_retries` (4 unless
//!   `bereq.max_retries` or the parameter says otherwise) the fetch fails
//!   instead (`Too many retries`). An `if (bereq.retries < N)` around the
//!   `return (retry)` lowers that bound.
//! - The retry is immediate: no backoff (`vbf_stp_retry` starts the next
//!   fetch at once), by design of the proxy (`platform_backoff`).
//! - A request whose body was streamed to the backend cannot be sent again
//!   ("Retry not possible, req.body not cached") unless the VCL caches it
//!   with `std.cache_req_body(..)`: without it, only requests without a
//!   body (GET, HEAD, DELETE, OPTIONS) are retried.
//! - One try waits at most the backend's `.connect_timeout` (3.5 s) and
//!   `.first_byte_timeout` (60 s) for the response to begin; `set
//!   bereq.first_byte_timeout`/`connect_timeout` override them per fetch.
//! - Each `backend name { .host = ..; .port = ..; }` is a call from the
//!   service that runs Varnish to that host.
//!
//! Pure and bounded: tokens and blocks are capped, nothing is recursive.

use crate::diag::invalid_setting;
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::time::Duration;

#[path = "saintmode.rs"]
mod saintmode;

/// The most tokens read from one file.
const MAX_TOKENS: usize = 200_000;
/// The most retry sites and backends kept from one file.
const MAX_ITEMS: usize = 256;

/// Whether a file is VCL, by name.
pub fn claims(name: &str) -> bool {
    name.ends_with(".vcl")
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Word,
    Str,
    Num,
    Punct,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    span: Span,
}

/// VCL's tokens: words (`bereq.retries`, `.host`), numbers with their unit
/// (`10s`), strings (`"..."`, `{"..."}`, `"""..."""`) and single
/// punctuation; comments (`#`, `//`, `/* */`) skipped.
fn lex(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let find = |from: usize, pat: &str| text[from..].find(pat).map(|k| from + k);
    while i < b.len() && out.len() < MAX_TOKENS {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' || (c == b'/' && b.get(i + 1) == Some(&b'/')) {
            i = find(i, "\n").unwrap_or(b.len());
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = find(i + 2, "*/").map_or(b.len(), |k| k + 2);
        } else if c == b'C' && b.get(i + 1) == Some(&b'{') {
            // Inline C (`C{ .. }C`): not VCL.
            i = find(i + 2, "}C").map_or(b.len(), |k| k + 2);
        } else if c == b'{' && b.get(i + 1) == Some(&b'"') {
            let end = find(i + 2, "\"}").map_or(b.len(), |k| k + 2);
            out.push(Tok {
                kind: Kind::Str,
                span: Span::new(i, end),
            });
            i = end;
        } else if text[i..].starts_with("\"\"\"") {
            let end = find(i + 3, "\"\"\"").map_or(b.len(), |k| k + 3);
            out.push(Tok {
                kind: Kind::Str,
                span: Span::new(i, end),
            });
            i = end;
        } else if c == b'"' {
            let end = b[i + 1..]
                .iter()
                .position(|&x| x == b'"' || x == b'\n')
                .map_or(b.len(), |k| i + 1 + k + 1);
            out.push(Tok {
                kind: Kind::Str,
                span: Span::new(i, end.min(b.len())),
            });
            i = end;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.') {
                j += 1;
            }
            out.push(Tok {
                kind: Kind::Num,
                span: Span::new(i, j),
            });
            i = j;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'.' {
            let mut j = i + 1;
            while j < b.len()
                && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'.' | b'-'))
            {
                j += 1;
            }
            out.push(Tok {
                kind: Kind::Word,
                span: Span::new(i, j),
            });
            i = j;
        } else {
            // One character, whatever its width.
            let w = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Tok {
                kind: Kind::Punct,
                span: Span::new(i, i + w),
            });
            i += w;
        }
    }
    out
}

/// The index of the token closing each `{` and `(` (unbalanced ones close
/// at the end).
fn closers(text: &str, toks: &[Tok]) -> Vec<usize> {
    let mut close = vec![toks.len(); toks.len()];
    let mut stack: Vec<(usize, u8)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match text.as_bytes()[t.span.start] {
            c @ (b'{' | b'(') => stack.push((i, c)),
            c @ (b'}' | b')') => {
                let want = if c == b'}' { b'{' } else { b'(' };
                if let Some(k) = stack.iter().rposition(|(_, o)| *o == want) {
                    close[stack[k].0] = i;
                    stack.truncate(k);
                }
            }
            _ => {}
        }
    }
    close
}

/// A value and where it is written.
type Written = Option<(Duration, Span)>;

/// A backend declaration.
struct Backend {
    name: String,
    host: Option<(String, Span)>,
    connect: Option<(Duration, Span)>,
    first_byte: Option<(Duration, Span)>,
}

/// A `return (retry)` and the conditions of the blocks around it.
struct RetrySite {
    sub: String,
    span: Span,
    /// Token ranges of the enclosing `if` conditions (`None`: an `else`).
    conds: Vec<Option<(usize, usize)>>,
}

struct Reader<'a> {
    text: &'a str,
    toks: Vec<Tok>,
    close: Vec<usize>,
    backends: Vec<Backend>,
    retries: Vec<RetrySite>,
    max_retries: Option<(u64, Span)>,
    connect: Option<(Duration, Span)>,
    first_byte: Option<(Duration, Span)>,
}

impl<'a> Reader<'a> {
    fn s(&self, i: usize) -> &'a str {
        self.toks
            .get(i)
            .map_or("", |t| &self.text[t.span.start..t.span.end])
    }

    fn is(&self, i: usize, s: &str) -> bool {
        self.s(i) == s
    }
}

/// Read one VCL file.
pub fn extract(text: &str, facts: &mut Facts) {
    let toks = lex(text);
    let close = closers(text, &toks);
    let mut r = Reader {
        text,
        toks,
        close,
        backends: Vec::new(),
        retries: Vec::new(),
        max_retries: None,
        connect: None,
        first_byte: None,
    };
    let mut i = 0;
    while i < r.toks.len() {
        if r.is(i, "backend") && r.is(i + 2, "{") && r.backends.len() < MAX_ITEMS {
            let end = r.close[i + 2];
            let name = r.s(i + 1).to_string();
            let b = backend(&r, name, i + 3, end, facts);
            r.backends.push(b);
            i = end + 1;
        } else if r.is(i, "sub") && r.is(i + 2, "{") {
            let end = r.close[i + 2];
            let name = r.s(i + 1).to_string();
            sub(&mut r, name, i + 3, end, facts);
            i = end + 1;
        } else if r.is(i, "{") {
            i = r.close[i] + 1;
        } else {
            i += 1;
        }
    }
    if r.backends.is_empty() && r.retries.is_empty() {
        return;
    }
    facts.claimed_by("varnish");
    let first = facts.policies.len();
    let sites: Vec<RetryPolicy> = r
        .retries
        .iter()
        .take(MAX_ITEMS)
        .filter_map(|site| policy(&r, site))
        .collect();
    if let Some(p) = one_layer(sites) {
        facts.policies.push(p);
    }
    saintmode::protections(&r, facts);
    let policies: Vec<usize> = (first..facts.policies.len()).collect();
    for b in &r.backends {
        let Some((host, span)) = &b.host else {
            continue;
        };
        facts.edges.push(CallEdge {
            client: None,
            caller: None,
            callee: crate::extract::short_host(host),
            span: *span,
            policies: policies.clone(),
            via: format!("Varnish backend `{}`", b.name),
            protocol: None,
        });
    }
    for b in &r.backends {
        for (what, t) in [
            (".connect_timeout", b.connect),
            (".first_byte_timeout", b.first_byte),
        ] {
            if let Some((d, span)) = t {
                facts.timeouts.push(TimeoutSetting {
                    system: System::Varnish,
                    name: Some(b.name.clone()),
                    what: what.into(),
                    timeout: Located::written(Timeout::after(d), span),
                });
            }
        }
    }
}

/// Every `return (retry)` of a VCL retries the same backend fetch and
/// counts in the same `bereq.retries`: one layer, not one per site (two
/// sites would otherwise multiply as if nested). Its bound is the largest
/// of the sites', its conditions and methods all of theirs.
fn one_layer(sites: Vec<RetryPolicy>) -> Option<RetryPolicy> {
    let mut it = sites.into_iter();
    let mut out = it.next()?;
    let mut subs = vec![out.name.clone().unwrap_or_default()];
    for p in it {
        let count = |p: &RetryPolicy| match p.attempts.value.count {
            AttemptCount::Finite(n) => n,
            _ => u64::MAX,
        };
        if count(&p) > count(&out) {
            out.attempts = p.attempts.clone();
        }
        out.retry_on = match (out.retry_on.value.clone(), p.retry_on.value.clone()) {
            (RetryOn::AllErrors, _) => out.retry_on,
            (_, RetryOn::AllErrors) => p.retry_on.clone(),
            (RetryOn::Listed { mut conditions }, RetryOn::Listed { conditions: more }) => {
                conditions.extend(more);
                Located {
                    value: RetryOn::Listed { conditions },
                    ..out.retry_on
                }
            }
            _ => out.retry_on,
        };
        out.methods = match (&out.methods.value, &p.methods.value) {
            (Methods::All, _) => out.methods,
            (_, Methods::All | Methods::IdempotentOnly) => p.methods.clone(),
            (Methods::Set(a), Methods::Set(b)) => {
                let mut m: Vec<String> = a.iter().chain(b).cloned().collect();
                m.sort();
                m.dedup();
                Located {
                    value: Methods::Set(m),
                    ..out.methods
                }
            }
            _ => out.methods,
        };
        if let Some(n) = p.name
            && !subs.contains(&n)
        {
            subs.push(n);
        }
    }
    let subs: Vec<&str> = subs
        .iter()
        .map(|n| n.trim_start_matches("return (retry) in "))
        .collect();
    out.name = Some(format!("return (retry) in {}", subs.join(" and ")));
    Some(out)
}

/// `.field = value;` pairs of a backend.
fn backend(r: &Reader<'_>, name: String, from: usize, to: usize, facts: &mut Facts) -> Backend {
    let mut b = Backend {
        name,
        host: None,
        connect: None,
        first_byte: None,
    };
    let mut i = from;
    while i < to {
        if r.is(i, "{") || r.is(i, "(") {
            i = r.close[i] + 1;
            continue;
        }
        let field = r.s(i);
        if !(field.starts_with('.') && r.is(i + 1, "=")) {
            i += 1;
            continue;
        }
        let v = i + 2;
        match field {
            ".host" => {
                let t = r.toks.get(v).copied();
                if let Some(t) = t.filter(|t| t.kind == Kind::Str) {
                    let host = unquote(&r.text[t.span.start..t.span.end]);
                    if names_a_service(host) {
                        b.host = Some((host.to_string(), t.span));
                    }
                }
            }
            ".connect_timeout" => b.connect = duration(r, v, field, facts),
            ".first_byte_timeout" => b.first_byte = duration(r, v, field, facts),
            _ => {}
        }
        i = v;
    }
    b
}

/// Whether a backend's `.host` names a service: not an address, not this
/// machine, and not a placeholder written as a constant's name for a
/// start script to replace (`"VARNISH_BACKEND_HOST"`, seen in
/// Financial-Times/pub-varnish; no DNS name has an underscore and no
/// lower-case letter).
fn names_a_service(host: &str) -> bool {
    !host.is_empty()
        && !host.eq_ignore_ascii_case("localhost")
        && host.parse::<std::net::IpAddr>().is_err()
        && (!host.contains('_') || host.chars().any(|c| c.is_ascii_lowercase()))
}

fn unquote(s: &str) -> &str {
    s.trim_start_matches("{\"")
        .trim_end_matches("\"}")
        .trim_matches('"')
}

/// A VCL duration (`3.5s`, `500ms`, `2m`); a number without its unit
/// does not compile.
fn duration(r: &Reader<'_>, i: usize, key: &str, facts: &mut Facts) -> Option<(Duration, Span)> {
    let t = *r.toks.get(i)?;
    let s = r.s(i);
    let cut = s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (n, unit) = s.split_at(cut);
    let secs = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        "w" => 604_800.0,
        "y" => 31_536_000.0,
        _ => 0.0,
    };
    match n.parse::<f64>() {
        Ok(v) if t.kind == Kind::Num && secs > 0.0 && v.is_finite() => {
            Some((Duration::from_secs_f64((v * secs).min(1e12)), t.span))
        }
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                t.span,
                key,
                s,
                "not a VCL duration (a number and its unit: `ms`, `s`, `m`, `h`, `d`, `w`, `y`): the VCL does not compile",
            ));
            None
        }
    }
}

/// Walk a subroutine's body: the `if` blocks around each `return
/// (retry)`, and the `set bereq.*` statements the retries read.
fn sub(r: &mut Reader<'_>, name: String, from: usize, to: usize, facts: &mut Facts) {
    // Open blocks: (closing token, the condition that opened it).
    let mut open: Vec<(usize, Option<(usize, usize)>)> = Vec::new();
    let mut i = from;
    while i < to {
        while open.last().is_some_and(|(c, _)| *c <= i) {
            open.pop();
        }
        let w = r.s(i);
        if matches!(w, "if" | "elsif" | "elseif" | "elif") && r.is(i + 1, "(") {
            let pc = r.close[i + 1];
            if r.is(pc + 1, "{") && pc < to {
                open.push((r.close[pc + 1], Some((i + 2, pc))));
                i = pc + 2;
                continue;
            }
        } else if w == "else" && r.is(i + 1, "{") {
            open.push((r.close[i + 1], None));
            i += 2;
            continue;
        } else if w == "return"
            && r.is(i + 1, "(")
            && r.is(i + 2, "retry")
            && r.retries.len() < MAX_ITEMS
        {
            let end = r.close[i + 1].min(r.toks.len() - 1);
            r.retries.push(RetrySite {
                sub: name.clone(),
                span: Span::new(r.toks[i].span.start, r.toks[end].span.end),
                conds: open.iter().map(|(_, c)| *c).collect(),
            });
        } else if w == "set" && r.is(i + 2, "=") {
            match r.s(i + 1) {
                "bereq.max_retries" => {
                    let t = r.toks.get(i + 3).copied();
                    if let Some(t) = t.filter(|t| t.kind == Kind::Num)
                        && let Ok(n) = r.s(i + 3).parse::<u64>()
                    {
                        r.max_retries = Some((n, t.span));
                    }
                }
                "bereq.connect_timeout" => {
                    r.connect = duration(r, i + 3, "bereq.connect_timeout", facts)
                }
                "bereq.first_byte_timeout" => {
                    r.first_byte = duration(r, i + 3, "bereq.first_byte_timeout", facts)
                }
                _ => {}
            }
        }
        i += 1;
    }
}

/// A comparison `left op number` in a condition's tokens, with its span.
fn comparisons<'a>(
    r: &Reader<'a>,
    (from, to): (usize, usize),
    left: &str,
) -> Vec<(&'a str, u64, Span)> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        if r.is(i, left) {
            let mut op = String::new();
            let mut j = i + 1;
            while j < to && r.toks[j].kind == Kind::Punct && op.len() < 2 {
                op.push_str(r.s(j));
                j += 1;
            }
            if let Ok(n) = r.s(j).parse::<u64>() {
                let op: &'a str = match op.as_str() {
                    "==" => "==",
                    "!=" => "!=",
                    "<" => "<",
                    "<=" => "<=",
                    ">" => ">",
                    ">=" => ">=",
                    _ => "?",
                };
                out.push((op, n, Span::new(r.toks[i].span.start, r.toks[j].span.end)));
            }
            i = j;
        }
        i += 1;
    }
    out
}

/// The policy of one `return (retry)`.
fn policy(r: &Reader<'_>, site: &RetrySite) -> Option<RetryPolicy> {
    let span = site.span;
    let conds: Vec<(usize, usize)> = site.conds.iter().flatten().copied().collect();
    // The bound: `max_retries`, lowered by `bereq.retries < N` around it.
    let (mut retries, mut how) = match r.max_retries {
        Some((n, _)) => (n, format!("bereq.max_retries = {n}")),
        None => (
            super::DEFAULT_MAX_RETRIES,
            format!("max_retries {} (the default)", super::DEFAULT_MAX_RETRIES),
        ),
    };
    for &c in &conds {
        for (op, n, _) in comparisons(r, c, "bereq.retries") {
            let cap = match op {
                "<" => n,
                "<=" => n + 1,
                "==" => n + 1,
                _ => continue,
            };
            if cap < retries {
                retries = cap;
                how = format!("if (bereq.retries {op} {n})");
            }
        }
    }
    let attempts = Located::written(
        Attempts {
            count: AttemptCount::Finite(retries.saturating_add(1)),
            written_as: format!("return (retry) up to {how}"),
        },
        span,
    );
    let mut p = RetryPolicy::new(System::Varnish, span, attempts);
    p.name = Some(format!("return (retry) in {}", site.sub));
    p.delay = Located::default_at(Delay::None, span);
    p.jitter = Located::default_at(Jitter::None, span);
    p.platform_backoff = true;
    p.retry_on = retry_on(r, site, &conds);
    p.methods = methods(r, &conds).unwrap_or_else(|| {
        if r.text.contains("cache_req_body") {
            Located::default_at(Methods::All, span)
        } else {
            Located::default_at(Methods::IdempotentOnly, span)
        }
    });
    if let [b] = r.backends.as_slice()
        && let Some((host, hspan)) = &b.host
    {
        p.scope.callee = Some(Located::written(crate::extract::short_host(host), *hspan));
    }
    p.per_try_timeout = Some(per_try(r, span));
    Some(p)
}

/// The methods the conditions around a `return (retry)` allow
/// (`bereq.method == "GET"`), when they name any.
fn methods(r: &Reader<'_>, conds: &[(usize, usize)]) -> Option<Located<Methods>> {
    let mut names = Vec::new();
    let mut at = None;
    for &(from, to) in conds {
        for i in from..to.min(r.toks.len()) {
            if r.is(i, "bereq.method") && r.is(i + 1, "=") && r.is(i + 2, "=") {
                let t = r.toks.get(i + 3).filter(|t| t.kind == Kind::Str)?;
                names.push(unquote(r.s(i + 3)).to_ascii_uppercase());
                at.get_or_insert(Span::new(r.toks[i].span.start, t.span.end));
            }
        }
    }
    names.sort();
    names.dedup();
    Some(Located::written(Methods::Set(names), at?))
}

/// What a `return (retry)` retries: the failed fetch in
/// `vcl_backend_error`, the statuses its conditions test in
/// `vcl_backend_response` (every response when none).
fn retry_on(r: &Reader<'_>, site: &RetrySite, conds: &[(usize, usize)]) -> Located<RetryOn> {
    let span = site.span;
    if site.sub == "vcl_backend_error" {
        let listed = [
            "backend connect failure",
            "first_byte_timeout",
            "backend reset",
        ]
        .map(|t| Located::default_at(Condition::Transport(t.into()), span));
        return Located::default_at(
            RetryOn::Listed {
                conditions: listed.to_vec(),
            },
            span,
        );
    }
    let mut equal = Vec::new();
    let (mut lo, mut hi) = (None::<u16>, None::<u16>);
    let mut range_at: Option<Span> = None;
    for &c in conds {
        for (op, n, s) in comparisons(r, c, "beresp.status") {
            let n = n.min(999) as u16;
            match op {
                "==" => equal.push((n, s)),
                ">=" => lo = Some(n),
                ">" => lo = Some(n + 1),
                "<" => hi = Some(n.saturating_sub(1)),
                "<=" => hi = Some(n),
                _ => continue,
            }
            if op != "==" {
                range_at = Some(range_at.map_or(s, |a| a.cover(s)));
            }
        }
    }
    let at = conds
        .first()
        .and_then(|&(a, b)| {
            let first = r.toks.get(a)?;
            let last = r.toks.get(b.saturating_sub(1).max(a))?;
            Some(Span::new(first.span.start, last.span.end))
        })
        .unwrap_or(span);
    // The retry's conditions are where the statuses are tested.
    let at = equal
        .iter()
        .map(|(_, s)| *s)
        .chain(range_at)
        .reduce(Span::cover)
        .unwrap_or(at);
    let conditions: Vec<Located<Condition>> = if !equal.is_empty() {
        equal
            .into_iter()
            .map(|(n, s)| Located::written(Condition::status(n), s))
            .collect()
    } else if lo.is_some() || hi.is_some() {
        let (from, to) = (lo.unwrap_or(100), hi.unwrap_or(599));
        vec![Located::written(
            Condition::Status { from, to },
            range_at.unwrap_or(at),
        )]
    } else if site.conds.is_empty() {
        return Located::written(RetryOn::AllErrors, span);
    } else {
        vec![Located::written(Condition::Predicate, at)]
    };
    Located::written(RetryOn::Listed { conditions }, at)
}

/// One try's limit: connect and first-byte timeouts of the slowest backend
/// (a fetch's own `set bereq.*_timeout` wins).
fn per_try(r: &Reader<'_>, span: Span) -> Located<Timeout> {
    let pick = |own: Option<(Duration, Span)>, fetch: Option<(Duration, Span)>, default| {
        fetch.or(own).map_or((default, None), |(d, s)| (d, Some(s)))
    };
    let mut worst: Option<(Duration, Option<Span>)> = None;
    let backends: Vec<(Written, Written)> = if r.backends.is_empty() {
        vec![(None, None)]
    } else {
        r.backends
            .iter()
            .map(|b| (b.connect, b.first_byte))
            .collect()
    };
    for (c, f) in backends {
        let (c, cs) = pick(c, r.connect, super::DEFAULT_CONNECT_TIMEOUT);
        let (f, fs) = pick(f, r.first_byte, super::DEFAULT_FIRST_BYTE_TIMEOUT);
        let t = c.saturating_add(f);
        if worst.is_none_or(|(w, _)| t > w) {
            worst = Some((t, fs.or(cs)));
        }
    }
    let (t, s) = worst.unwrap_or((Duration::ZERO, None));
    match s {
        Some(s) => Located::written(Timeout::after(t), s),
        None => Located::default_at(Timeout::after(t), span),
    }
}

#[cfg(test)]
#[path = "extract_tests.rs"]
mod tests;
