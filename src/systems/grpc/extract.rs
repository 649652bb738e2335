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

use crate::diag::{invalid_setting, unknown_setting, unparsable_file};
use crate::duration::human;
use crate::extract::{DocCtx, Facts};
use crate::model::*;
use crate::source::Span;
use crate::yaml::{self, Yaml};
use std::time::Duration;

mod literal;
mod policy;

use literal::*;
pub use literal::{extract_json_literal, extract_json_pieces, extract_raw_json_literal};
use policy::*;

/// The most attempts a gRPC client makes, whatever `maxAttempts` says.
pub const MAX_ATTEMPTS_LIMIT: u64 = 5;

/// Status code names by their numeric value.
pub use crate::extract::grpc_code_test::CODES as STATUS_CODES;

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

thread_local! {
    /// Set while a config only grpc-go reads is read ([`as_grpc_go`]).
    static GRPC_GO_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `read` on a service config that only grpc-go reads (Go's
/// `grpc.WithDefaultServiceConfig`): grpc-go decodes it with
/// `encoding/json`, which matches keys case-insensitively, so a key in
/// another case (`"MaxAttempts"`) is no finding; and its duration parser
/// (`internal/serviceconfig/duration.go` `Duration.UnmarshalJSON`, "both
/// [the whole and fractional part] are optional but one is required")
/// takes `".01s"`.
pub fn as_grpc_go<T>(read: impl FnOnce() -> T) -> T {
    let before = GRPC_GO_ONLY.with(|g| g.replace(true));
    let out = read();
    GRPC_GO_ONLY.with(|g| g.set(before));
    out
}

fn grpc_go_only() -> bool {
    GRPC_GO_ONLY.with(|g| g.get())
}

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
                if grpc_go_only() {
                    if !entries.iter().any(|(c, _)| c == k) {
                        entries.push((k, *e));
                    }
                    continue;
                }
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
            protocol: None,
        });
    }
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
    // grpc-go: no whole part (`.5s`) is read as `0.5s`.
    if grpc_go_only()
        && let Some(frac) = t.strip_prefix('.')
        && frac.len() > 1
        && frac[..frac.len() - 1].bytes().all(|b| b.is_ascii_digit())
        && let Ok(d) = crate::duration::parse_protobuf(&format!("0{t}"))
    {
        return Ok(d);
    }
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
