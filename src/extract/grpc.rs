//! gRPC service configs (`*service_config*.json`, any JSON or YAML with a
//! `methodConfig`, JSON in a YAML string such as a ConfigMap's `data`, and
//! JSON in a string literal of Java or Rust code): the
//! retry and hedging policy of each method, its timeout, and the channel's
//! retry throttling.
//!
//! Semantics follow gRFC A6 ("gRPC Retry Design") and the clients that
//! implement it:
//! - there are no retries unless a `retryPolicy` is configured;
//! - `maxAttempts` counts total attempts, the first included; values above
//!   5 are treated as 5 (grpc-go `service_config.go` `convertRetryPolicy`;
//!   grpc-java's default `maxRetryAttempts(5)` limit);
//! - a retry policy is only valid with `maxAttempts >= 2`,
//!   `initialBackoff > 0`, `maxBackoff > 0`, `backoffMultiplier > 0` and a
//!   non-empty `retryableStatusCodes`; grpc-go logs "ignoring retry policy
//!   ... due to illegal configuration" and drops it, grpc-java rejects the
//!   whole service config;
//! - the n-th retry waits `min(initialBackoff x backoffMultiplier^(n-1),
//!   maxBackoff) x random(0.8, 1.2)` (A6 since 2024-08; older clients drew
//!   `random(0, backoff)`): jittered either way, the cap applied before the
//!   randomisation;
//! - the method `timeout` bounds the whole RPC, every attempt and back-off
//!   included; there is no per-attempt timeout except gRPC C-core's
//!   experimental `perAttemptRecvTimeout`;
//! - `retryThrottling` (`maxTokens` in (0, 1000], `tokenRatio` > 0, else
//!   grpc-go rejects the service config) is a token bucket shared by every
//!   method of the channel: retries stop while the tokens are at or below
//!   half of `maxTokens`;
//! - `hedgingPolicy` sends up to `maxAttempts` copies `hedgingDelay` apart
//!   (default 0s: all at once); `nonFatalStatusCodes` keep the other copies
//!   going. grpc-java implements hedging; grpc-go ignores it;
//! - durations are protobuf JSON durations: a decimal number of seconds
//!   with an `s` suffix (`"0.5s"`), nothing else;
//! - status codes are upper-case names (`"UNAVAILABLE"`) or numbers 0-16;
//!   grpc-go's `codes.Code.UnmarshalJSON` and grpc-java's
//!   `Status.Code.valueOf` reject any other spelling;
//! - keys: grpc-go decodes the JSON with `encoding/json`, which matches
//!   field names case-insensitively, while grpc-java and C-core look keys up
//!   exactly; a key that only differs in case is read (as grpc-go does) and
//!   reported (RL901).
//!
//! For the Java and Rust extractors, [`extract_json_literal`] and
//! [`extract_raw_json_literal`] read a service config written in a string
//! literal, with every span mapped back into the host file.

use super::{DocCtx, Facts};
use crate::diag::{invalid_setting, unknown_setting, unparsable_file};
use crate::duration::human;
use crate::model::*;
use crate::source::Span;
use crate::yaml::{self, Yaml};
use std::time::Duration;

/// The most attempts a gRPC client makes, whatever `maxAttempts` says.
pub const MAX_ATTEMPTS_LIMIT: u64 = 5;

/// Status code names by their numeric value.
pub const STATUS_CODES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

const TOP_KEYS: &[&str] = &[
    "loadBalancingPolicy",
    "loadBalancingConfig",
    "methodConfig",
    "retryThrottling",
    "healthCheckConfig",
];
const METHOD_KEYS: &[&str] = &[
    "name",
    "waitForReady",
    "timeout",
    "maxRequestMessageBytes",
    "maxResponseMessageBytes",
    "retryPolicy",
    "hedgingPolicy",
];
const NAME_KEYS: &[&str] = &["service", "method"];
const RETRY_KEYS: &[&str] = &[
    "maxAttempts",
    "initialBackoff",
    "maxBackoff",
    "backoffMultiplier",
    "retryableStatusCodes",
    "perAttemptRecvTimeout",
];
const HEDGING_KEYS: &[&str] = &["maxAttempts", "hedgingDelay", "nonFatalStatusCodes"];
const THROTTLING_KEYS: &[&str] = &["maxTokens", "tokenRatio"];

/// Maps a span of the parsed text to a span of the file shown to users.
type SpanMap<'m> = &'m dyn Fn(Span) -> Span;

/// Extract from one YAML/JSON document. Returns whether it is a service
/// config (a mapping with a `methodConfig`) or holds one as a string (a
/// Kubernetes ConfigMap's `data`, a Helm value, an environment variable
/// such as `GRPC_SERVICE_CONFIG`), which is read as JSON with its spans in
/// this file.
pub fn extract_doc(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    if read_service_config(ctx.root(), &|s| s, facts) {
        return true;
    }
    let mut any = false;
    // Every string of the document, within a budget (aliases may repeat
    // nodes).
    let mut stack = vec![ctx.root()];
    let mut budget = 100_000usize;
    while let Some(node) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        if let Some(v) = node.as_str() {
            if v.contains('{') && v.to_ascii_lowercase().contains("methodconfig") {
                let span = node.span();
                let offsets = yaml::scalar_offsets(ctx.text, span, v)
                    .unwrap_or_else(|| vec![span.start; v.len() + 1]);
                any |= read_literal(v, &offsets, span, facts);
            }
            continue;
        }
        stack.extend(node.entries().into_iter().rev().map(|e| e.value));
        stack.extend(node.items().into_iter().rev());
    }
    any
}

/// Read a gRPC service config written in a string literal of `host` (the
/// whole file) whose content, between the quotes, is `literal`. Escapes
/// (`\"`, `\\`, `\n`, `\t`, `\uXXXX`, `\u{..}`, a `\` before a line break)
/// are decoded, and every span of the result points into `host`.
///
/// Returns `false`, adding nothing, when the literal is not JSON with a
/// `methodConfig`; a literal that mentions `methodConfig` but does not parse
/// is reported (RL903) and `true` is returned.
pub fn extract_json_literal(host: &str, literal: Span, facts: &mut Facts) -> bool {
    let Some(raw) = host.get(literal.start..literal.end) else {
        return false;
    };
    let (decoded, offsets) = unescape(raw, literal.start);
    read_literal(&decoded, &offsets, literal, facts)
}

/// Like [`extract_json_literal`] for one string written as several
/// literals joined with `+` (`pieces`: each literal's content, in order):
/// the pieces are decoded and read as one text, every span pointing into
/// the piece it came from.
pub fn extract_json_pieces(host: &str, pieces: &[Span], facts: &mut Facts) -> bool {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
        return false;
    };
    let mut decoded = String::new();
    let mut offsets = Vec::new();
    for p in pieces {
        let Some(raw) = host.get(p.start..p.end) else {
            return false;
        };
        let (text, mut map) = unescape(raw, p.start);
        map.pop();
        decoded.push_str(&text);
        offsets.extend(map);
    }
    offsets.push(last.end);
    read_literal(&decoded, &offsets, Span::new(first.start, last.end), facts)
}

/// Like [`extract_json_literal`] for literals without escapes: Rust raw
/// strings (`r#"..."#`).
pub fn extract_raw_json_literal(host: &str, literal: Span, facts: &mut Facts) -> bool {
    let Some(raw) = host.get(literal.start..literal.end) else {
        return false;
    };
    let offsets: Vec<usize> = (0..=raw.len()).map(|i| literal.start + i).collect();
    read_literal(raw, &offsets, literal, facts)
}

fn read_literal(decoded: &str, offsets: &[usize], literal: Span, facts: &mut Facts) -> bool {
    if !decoded.contains("methodConfig") && !decoded.to_ascii_lowercase().contains("methodconfig") {
        return false;
    }
    let map = |s: Span| -> Span {
        let at = |i: usize| offsets.get(i).copied().unwrap_or(literal.end);
        Span::new(at(s.start), at(s.end).max(at(s.start)))
    };
    let file = yaml::parse(decoded);
    if let Some(err) = file.errors.first() {
        facts.diagnostics.push(unparsable_file::literal(
            map(err.span),
            "the gRPC service config",
            &err.message,
        ));
        return true;
    }
    let mut any = false;
    for doc in &file.documents {
        any |= read_service_config(file.root(doc), &map, facts);
    }
    any
}

/// Decode string-literal escapes, returning the text and, for each byte of
/// it (and its end), the offset in the host file.
fn unescape(raw: &str, base: usize) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(raw.len());
    let mut offsets = Vec::with_capacity(raw.len() + 1);
    let bytes = raw.as_bytes();
    let mut i = 0;
    let push = |out: &mut String, offsets: &mut Vec<usize>, c: char, at: usize| {
        for _ in 0..c.len_utf8() {
            offsets.push(base + at);
        }
        out.push(c);
    };
    while i < raw.len() {
        let Some(c) = raw[i..].chars().next() else {
            break;
        };
        if c != '\\' {
            push(&mut out, &mut offsets, c, i);
            i += c.len_utf8();
            continue;
        }
        let next = bytes.get(i + 1).copied();
        match next {
            Some(b'n') => push(&mut out, &mut offsets, '\n', i),
            Some(b't') => push(&mut out, &mut offsets, '\t', i),
            Some(b'r') => push(&mut out, &mut offsets, '\r', i),
            Some(b'b') | Some(b'f') | Some(b's') => push(&mut out, &mut offsets, ' ', i),
            Some(b'0') => push(&mut out, &mut offsets, '\0', i),
            Some(b'"') | Some(b'\'') | Some(b'\\') => {
                push(&mut out, &mut offsets, next.unwrap_or(b' ') as char, i)
            }
            Some(b'\n') | Some(b'\r') => {
                // A line continuation: the break and the next line's
                // indentation are not part of the string.
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                i = j;
                continue;
            }
            Some(b'u') => {
                let rest = &raw[i + 2..];
                let (code, len) = if let Some(body) = rest.strip_prefix('{') {
                    let end = body.find('}').unwrap_or(body.len());
                    (u32::from_str_radix(&body[..end], 16).ok(), end + 2)
                } else {
                    let hex = rest.trim_start_matches('u');
                    let extra_u = rest.len() - hex.len();
                    let digits = hex.get(..4).unwrap_or("");
                    (u32::from_str_radix(digits, 16).ok(), extra_u + 4)
                };
                let ch = code.and_then(char::from_u32).unwrap_or('\u{FFFD}');
                push(&mut out, &mut offsets, ch, i);
                i = ceil_boundary(raw, i + 2 + len);
                continue;
            }
            Some(b'x') => {
                let code = raw
                    .get(i + 2..i + 4)
                    .and_then(|h| u32::from_str_radix(h, 16).ok());
                let ch = code.and_then(char::from_u32).unwrap_or('\u{FFFD}');
                push(&mut out, &mut offsets, ch, i);
                i = ceil_boundary(raw, i + 4);
                continue;
            }
            Some(_) => {
                // Unknown escape: keep the character after the backslash.
                let ch = raw[i + 1..].chars().next().unwrap_or(' ');
                push(&mut out, &mut offsets, ch, i);
                i += 1 + ch.len_utf8();
                continue;
            }
            None => {
                push(&mut out, &mut offsets, '\\', i);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    offsets.push(base + raw.len());
    (out, offsets)
}

/// The first char boundary at or after `i`, at most the end.
fn ceil_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// A mapping's entries by their canonical key, with case mismatches and
/// unknown keys reported.
struct Fields<'f> {
    entries: Vec<(&'static str, yaml::Entry<'f>)>,
}

impl<'f> Fields<'f> {
    fn read(
        map: Yaml<'f>,
        known: &[&'static str],
        what: &str,
        m: SpanMap<'_>,
        facts: &mut Facts,
    ) -> Fields<'f> {
        let mut entries: Vec<(&'static str, yaml::Entry<'f>)> = Vec::new();
        let all = map.entries();
        for e in &all {
            if let Some(k) = known.iter().find(|k| **k == e.key) {
                entries.retain(|(c, _)| c != k);
                entries.push((k, *e));
            } else if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(e.key)) {
                facts.diagnostics.push(unknown_setting::wrong_case(
                    m(e.key_span),
                    e.key,
                    k,
                    what,
                    "only grpc-go matches keys case-insensitively; grpc-java and gRPC C-core ignore it",
                ));
                // An exact spelling wins over a case-insensitive one.
                if !entries.iter().any(|(c, _)| c == k) {
                    entries.push((k, *e));
                }
            } else {
                facts.diagnostics.push(unknown_setting::unknown_key(
                    m(e.key_span),
                    e.key,
                    what,
                    known.iter().copied(),
                ));
            }
        }
        Fields { entries }
    }

    fn get(&self, key: &str) -> Option<yaml::Entry<'f>> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, e)| *e)
    }
}

/// The methodConfig key, matched as grpc-go does.
fn method_config(root: Yaml<'_>) -> Option<yaml::Entry<'_>> {
    let entries = root.entries();
    entries
        .iter()
        .find(|e| e.key == "methodConfig")
        .or_else(|| {
            entries
                .iter()
                .find(|e| e.key.eq_ignore_ascii_case("methodConfig"))
        })
        .copied()
}

/// Read one parsed service config. Returns whether it is one.
fn read_service_config(root: Yaml<'_>, m: SpanMap<'_>, facts: &mut Facts) -> bool {
    if !root.is_map() || method_config(root).is_none() {
        return false;
    }
    let top = Fields::read(root, TOP_KEYS, "a gRPC service config", m, facts);
    let mut rejected = false;
    let throttling = top
        .get("retryThrottling")
        .and_then(|e| throttling(e, m, facts, &mut rejected));
    let first = facts.policies.len();
    let mut seen_names: Vec<(String, Span)> = Vec::new();
    let configs = top.get("methodConfig").map(|e| e.value);
    match configs {
        Some(list) if list.is_seq() => {
            for mc in list.items() {
                if mc.is_map() {
                    method(mc, m, facts, &mut seen_names, &mut rejected);
                }
            }
        }
        Some(other) if !other.is_null() => {
            facts.diagnostics.push(invalid_setting::value(
                m(other.span()),
                "methodConfig",
                other.kind_name(),
                "must be a list of method configs",
            ));
        }
        _ => {}
    }
    if rejected {
        // The client refuses the whole service config: none of it applies.
        facts.policies.truncate(first);
        facts
            .edges
            .retain(|e| e.policies.iter().all(|&i| i < first));
        return true;
    }
    match throttling {
        Some(budget) => {
            for p in &mut facts.policies[first..] {
                p.budget = Some(budget.clone());
            }
        }
        // `retryThrottling` is one per service config: a missing one is
        // reported once, at `methodConfig`, not once per method.
        None => {
            if let Some(mc) = top.get("methodConfig") {
                for p in &mut facts.policies[first..] {
                    p.budget_site = crate::model::BudgetSite::Block {
                        span: m(mc.key_span),
                        what: "this service config".into(),
                    };
                }
            }
        }
    }
    true
}

fn throttling(
    e: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Option<Located<Budget>> {
    let f = Fields::read(e.value, THROTTLING_KEYS, "gRPC `retryThrottling`", m, facts);
    let mut ok = true;
    let mut required = |key: &str, valid: fn(f64) -> bool, rule: &str| -> Option<f64> {
        let read = match f.get(key) {
            Some(t) => match number(t.value).filter(|n| valid(*n)) {
                Some(n) => return Some(n),
                None => invalid_setting::value(
                    m(t.value.span()),
                    key,
                    t.value.as_str().unwrap_or(t.value.kind_name()),
                    &format!("must be {rule}; grpc-go rejects the whole service config"),
                ),
            },
            None => invalid_setting::value(
                m(e.key_span),
                "retryThrottling",
                &format!("no `{key}`"),
                &format!("`{key}` is required; grpc-go rejects the whole service config"),
            ),
        };
        facts.diagnostics.push(read);
        ok = false;
        None
    };
    let max_tokens = required(
        "maxTokens",
        |n| n > 0.0 && n <= 1000.0,
        "a number in (0, 1000]",
    );
    let token_ratio = required("tokenRatio", |r| r > 0.0, "a number above 0");
    if !ok {
        *rejected = true;
        return None;
    }
    Some(Located::written(
        Budget::TokenBucket {
            max_tokens: max_tokens.unwrap_or(0.0),
            token_ratio: token_ratio.unwrap_or(0.0),
        },
        m(e.span()),
    ))
}

/// A JSON number (not a string).
fn number(v: Yaml<'_>) -> Option<f64> {
    if v.is_quoted() {
        return None;
    }
    v.as_f64()
}

/// One `name` entry: "service/method", "service/*", or "*" for the
/// default method config (an empty name).
struct MethodName {
    full: String,
    service: Option<(String, Span)>,
}

fn names(
    e: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    seen: &mut Vec<(String, Span)>,
    rejected: &mut bool,
) -> Vec<MethodName> {
    let mut out = Vec::new();
    for n in e.value.items() {
        if !n.is_map() {
            continue;
        }
        let f = Fields::read(n, NAME_KEYS, "a gRPC method name", m, facts);
        let text = |k: &str| {
            f.get(k)
                .and_then(|x| x.value.as_str().map(|s| (s.to_string(), x.value.span())))
                .filter(|(s, _)| !s.is_empty())
        };
        let service = text("service");
        let method = text("method");
        let full = match (&service, &method) {
            (Some((s, _)), Some((mm, _))) => format!("{s}/{mm}"),
            (Some((s, _)), None) => format!("{s}/*"),
            (None, None) => "*".to_string(),
            (None, Some((mm, span))) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(*span),
                    "method",
                    mm,
                    "a `method` needs a `service`; the client rejects the service config",
                ));
                *rejected = true;
                continue;
            }
        };
        let span = m(n.span());
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == full) {
            facts.diagnostics.push(
                invalid_setting::value(
                    span,
                    "name",
                    &full,
                    "the same method is configured twice; grpc-go rejects the whole service config",
                )
                .with_related(*first, "first configured here"),
            );
            *rejected = true;
        } else {
            seen.push((full.clone(), span));
        }
        out.push(MethodName {
            full,
            service: service.map(|(s, sp)| (s, m(sp))),
        });
    }
    out
}

fn method(
    mc: Yaml<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    seen: &mut Vec<(String, Span)>,
    rejected: &mut bool,
) {
    let f = Fields::read(mc, METHOD_KEYS, "a gRPC method config", m, facts);
    let anchor = mc.entries().first().map_or(m(mc.span()), |e| m(e.key_span));
    let method_names = match f.get("name") {
        Some(e) => names(e, m, facts, seen, rejected),
        None => Vec::new(),
    };
    let timeout = f.get("timeout").map(|e| {
        let t = match proto_duration(e.value) {
            Ok(d) if d.is_zero() => Timeout::Disabled,
            Ok(d) => Timeout::after(d),
            Err(why) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "timeout",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    &why,
                ));
                *rejected = true;
                Timeout::Unknown
            }
        };
        Located::written(t, m(e.span()))
    });
    let retry = f.get("retryPolicy").filter(|e| !e.value.is_null());
    let hedge = f.get("hedgingPolicy").filter(|e| !e.value.is_null());
    if let (Some(r), Some(h)) = (retry, hedge) {
        facts.diagnostics.push(
            invalid_setting::value(
                m(h.key_span),
                "hedgingPolicy",
                "beside a retryPolicy",
                "a method config may have a `retryPolicy` or a `hedgingPolicy`, not both; the client rejects the service config",
            )
            .with_related(m(r.key_span), "the retry policy"),
        );
        *rejected = true;
        return;
    }
    if method_names.is_empty() {
        if let Some(p) = retry.or(hedge) {
            facts.diagnostics.push(invalid_setting::value(
                m(p.key_span),
                "name",
                "missing",
                "a method config without a `name` applies to no method, so this policy is never used",
            ));
        }
        return;
    }
    let policy = match (retry, hedge) {
        (Some(r), None) => retry_policy(r, m, facts, rejected),
        (None, Some(h)) => hedging_policy(h, m, facts, rejected),
        _ => None,
    };
    let Some(mut policy) = policy else {
        return;
    };
    let label = match method_names.len() {
        1 => method_names[0].full.clone(),
        n => format!("{} (+{} more)", method_names[0].full, n - 1),
    };
    policy.name = Some(label.clone());
    policy.scope.route = Some(label);
    policy.scope.callee = method_names
        .iter()
        .find_map(|n| n.service.as_ref())
        .map(|(s, sp)| Located::written(s.clone(), *sp));
    let names_span = f.get("name").map_or(anchor, |e| m(e.span()));
    policy.methods = if method_names.iter().any(|n| n.full == "*") {
        Located::written(Methods::All, names_span)
    } else {
        Located::written(
            Methods::Set(method_names.iter().map(|n| n.full.clone()).collect()),
            names_span,
        )
    };
    policy.overall_timeout =
        Some(timeout.unwrap_or_else(|| Located::default_at(Timeout::Disabled, anchor)));
    let index = facts.policies.len();
    let mut services: Vec<(String, Span)> = Vec::new();
    for n in &method_names {
        if let Some((s, sp)) = &n.service
            && !services.iter().any(|(x, _)| x == s)
        {
            services.push((s.clone(), *sp));
        }
    }
    facts.policies.push(policy);
    for (service, span) in services {
        facts.edges.push(CallEdge {
            client: None,
            caller: None,
            callee: service,
            span,
            policies: vec![index],
            via: "gRPC service config".into(),
        });
    }
}

/// `maxAttempts`, capped at 5 (and reported when above).
fn max_attempts(
    e: Option<yaml::Entry<'_>>,
    what: &str,
    m: SpanMap<'_>,
    facts: &mut Facts,
) -> Result<(u64, Span, String), ()> {
    let Some(e) = e else {
        return Err(());
    };
    let text = e
        .value
        .as_str()
        .unwrap_or(e.value.kind_name())
        .trim()
        .to_string();
    let n = match number(e.value) {
        Some(x) if x.fract() == 0.0 && x >= 2.0 => x.min(1e9) as u64,
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                m(e.value.span()),
                "maxAttempts",
                &text,
                &format!(
                    "a {what} needs a whole number of at least 2 (total attempts, the first included); grpc-go ignores the policy and grpc-java rejects the service config"
                ),
            ));
            return Err(());
        }
    };
    if n > MAX_ATTEMPTS_LIMIT {
        facts.diagnostics.push(invalid_setting::value(
            m(e.value.span()),
            "maxAttempts",
            &text,
            &format!(
                "gRPC clients treat any value above {MAX_ATTEMPTS_LIMIT} as {MAX_ATTEMPTS_LIMIT}, so the policy makes {MAX_ATTEMPTS_LIMIT} attempts"
            ),
        ));
        return Ok((
            MAX_ATTEMPTS_LIMIT,
            m(e.span()),
            format!("maxAttempts: {n}, treated as {MAX_ATTEMPTS_LIMIT}"),
        ));
    }
    Ok((n, m(e.span()), format!("maxAttempts: {n}")))
}

fn retry_policy(
    r: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Option<RetryPolicy> {
    let f = Fields::read(r.value, RETRY_KEYS, "a gRPC `retryPolicy`", m, facts);
    let root = m(r.key_span);
    let mut valid = true;
    let attempts = match f.get("maxAttempts") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `maxAttempts`",
                "`maxAttempts` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
        e => max_attempts(e, "retry policy", m, facts).ok(),
    };
    let mut backoff = |key: &str, facts: &mut Facts| -> Option<(Duration, Span)> {
        match f.get(key) {
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    root,
                    "retryPolicy",
                    &format!("no `{key}`"),
                    &format!("`{key}` is required; grpc-go ignores the policy and grpc-java rejects the service config"),
                ));
                valid = false;
                None
            }
            Some(e) => match proto_duration(e.value) {
                Ok(d) if !d.is_zero() => Some((d, m(e.span()))),
                Ok(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                        m(e.value.span()),
                        key,
                        e.value.as_str().unwrap_or(""),
                        "must be above 0; grpc-go ignores the policy and grpc-java rejects the service config",
                    ));
                    valid = false;
                    None
                }
                Err(why) => {
                    facts.diagnostics.push(invalid_setting::value(
                        m(e.value.span()),
                        key,
                        e.value.as_str().unwrap_or(e.value.kind_name()),
                        &why,
                    ));
                    *rejected = true;
                    valid = false;
                    None
                }
            },
        }
    };
    let initial = backoff("initialBackoff", facts);
    let max = backoff("maxBackoff", facts);
    let multiplier = match f.get("backoffMultiplier") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `backoffMultiplier`",
                "`backoffMultiplier` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
        Some(e) => match number(e.value) {
            Some(x) if x > 0.0 => Some((x, m(e.span()))),
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "backoffMultiplier",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    "must be a number above 0; grpc-go ignores the policy and grpc-java rejects the service config",
                ));
                valid = false;
                None
            }
        },
    };
    let codes = match f.get("retryableStatusCodes") {
        Some(e) => {
            let c = status_codes(e, m, facts, rejected);
            if c.is_empty() && e.value.items().is_empty() {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "retryableStatusCodes",
                    "[]",
                    "must name at least one status code; grpc-go ignores the policy and grpc-java rejects the service config",
                ));
                valid = false;
            }
            Some((c, m(e.span())))
        }
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `retryableStatusCodes`",
                "`retryableStatusCodes` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
    };
    let per_try = f.get("perAttemptRecvTimeout").map(|e| {
        let t = match proto_duration(e.value) {
            Ok(d) if !d.is_zero() => Timeout::after(d),
            Ok(_) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "perAttemptRecvTimeout",
                    e.value.as_str().unwrap_or(""),
                    "must be above 0",
                ));
                Timeout::Unknown
            }
            Err(why) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "perAttemptRecvTimeout",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    &why,
                ));
                Timeout::Unknown
            }
        };
        Located::written(t, m(e.span()))
    });
    let (
        Some((n, attempts_span, written_as)),
        Some((base, base_span)),
        Some((cap, _)),
        Some((mult, _)),
        Some((codes, codes_span)),
    ) = (attempts, initial, max, multiplier, codes)
    else {
        return None;
    };
    if !valid {
        return None;
    }
    let mut p = RetryPolicy::new(
        System::Grpc,
        root,
        Located::written(
            Attempts {
                count: AttemptCount::Finite(n),
                written_as,
            },
            attempts_span,
        ),
    );
    p.delay = Located::written(
        Delay::Exponential {
            base,
            multiplier: mult,
            cap: Some(cap),
        },
        base_span,
    );
    p.jitter = Located::default_at(Jitter::Proportional { factor: 0.2 }, root);
    p.cap_order = CapOrder::BeforeJitter;
    p.per_try_timeout = per_try;
    p.retry_on = if codes.is_empty() {
        Located::written(RetryOn::Nothing, codes_span)
    } else {
        Located::written(RetryOn::Listed { conditions: codes }, codes_span)
    };
    Some(p)
}

fn hedging_policy(
    h: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Option<RetryPolicy> {
    let f = Fields::read(h.value, HEDGING_KEYS, "a gRPC `hedgingPolicy`", m, facts);
    let root = m(h.key_span);
    let attempts = match f.get("maxAttempts") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "hedgingPolicy",
                "no `maxAttempts`",
                "`maxAttempts` is required; grpc-java rejects the service config",
            ));
            None
        }
        e => max_attempts(e, "hedging policy", m, facts).ok(),
    };
    let delay = match f.get("hedgingDelay") {
        None => Some(Located::default_at(Delay::None, root)),
        Some(e) => match proto_duration(e.value) {
            Ok(d) if d.is_zero() => Some(Located::written(Delay::None, m(e.span()))),
            Ok(d) => Some(Located::written(Delay::Fixed { delay: d }, m(e.span()))),
            Err(why) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "hedgingDelay",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    &why,
                ));
                *rejected = true;
                None
            }
        },
    };
    let (Some((n, attempts_span, written_as)), Some(delay)) = (attempts, delay) else {
        return None;
    };
    let mut p = RetryPolicy::new(
        System::Grpc,
        root,
        Located::written(
            Attempts {
                count: AttemptCount::Finite(n),
                written_as,
            },
            attempts_span,
        ),
    );
    p.kind = PolicyKind::Hedge;
    let when = match &delay.value {
        Delay::Fixed { delay } => format!("no response within `{}`", human(*delay)),
        _ => "at once (no `hedgingDelay`)".to_string(),
    };
    p.delay = delay;
    p.jitter = Located::default_at(Jitter::None, root);
    // Hedged copies are not a back-off: the backoff rules do not apply.
    p.platform_backoff = true;
    let mut conditions = vec![Located::default_at(Condition::Token(when), root)];
    if let Some(e) = f.get("nonFatalStatusCodes") {
        conditions.extend(status_codes(e, m, facts, rejected));
    }
    p.retry_on = Located::written(RetryOn::Listed { conditions }, root);
    Some(p)
}

/// Status codes as names or numbers; anything else is reported.
fn status_codes(
    e: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Vec<Located<Condition>> {
    let mut out = Vec::new();
    if !e.value.is_seq() {
        facts.diagnostics.push(invalid_setting::value(
            m(e.value.span()),
            e.key,
            e.value.as_str().unwrap_or(e.value.kind_name()),
            "must be a list of status codes",
        ));
        *rejected = true;
        return out;
    }
    for item in e.value.items() {
        let span = m(item.span());
        let text = item.as_str().unwrap_or("").trim();
        let code = if item.is_quoted() {
            STATUS_CODES.iter().find(|c| **c == text).copied()
        } else {
            text.parse::<usize>()
                .ok()
                .and_then(|i| STATUS_CODES.get(i).copied())
        };
        match code {
            Some(c) => out.push(Located::written(Condition::Grpc(c.to_string()), span)),
            None => {
                let hint = match crate::keys::did_you_mean(text, STATUS_CODES.iter().copied()) {
                    Some(c) if item.is_quoted() => {
                        format!(" (did you mean `{c}`? names are upper case)")
                    }
                    _ => String::new(),
                };
                facts.diagnostics.push(invalid_setting::value(
                    span,
                    e.key,
                    if text.is_empty() { item.kind_name() } else { text },
                    &format!(
                        "not a gRPC status code name or number 0-16{hint}: grpc-go and grpc-java reject the whole service config"
                    ),
                ));
                // grpc-go and grpc-java both fail to parse the config.
                *rejected = true;
            }
        }
    }
    out
}

/// A protobuf JSON duration: a string of decimal seconds with an `s`
/// suffix (`"1.5s"`, `"0.100s"`, `"60s"`).
pub fn proto_duration(v: Yaml<'_>) -> Result<Duration, String> {
    let Some(text) = v.as_str().filter(|_| v.is_quoted()) else {
        return Err(
            "a duration is a JSON string of seconds with an `s` suffix, such as `\"1.5s\"`".into(),
        );
    };
    parse_proto_duration(text)
}

/// Parse the text of a protobuf JSON duration
/// ([`crate::duration::parse_protobuf`]), with the message gRPC users read.
pub fn parse_proto_duration(text: &str) -> Result<Duration, String> {
    use crate::duration::ProtobufDurationError as E;
    let t = text.trim();
    crate::duration::parse_protobuf(text).map_err(|e| match e {
        E::Negative => format!("negative duration `{t}`"),
        E::OutOfRange => format!("`{t}` is out of range"),
        E::Malformed => format!(
            "`{text}` is not a protobuf duration: write decimal seconds with an `s` suffix, such as `1.5s`"
        ),
    })
}

#[cfg(test)]
mod tests;
