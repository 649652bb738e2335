//! Resilience4j retry and time-limiter settings from Spring configuration
//! (`resilience4j.retry.configs|instances.<name>.*`,
//! `resilience4j.timelimiter.*`), read from flattened properties so that
//! YAML and `.properties` share this one interpretation.
//!
//! Semantics follow `CommonRetryConfigurationProperties` (resilience4j
//! 2.x): `maxAttempts` counts total attempts (default 3); the interval
//! properties apply only when a `waitDuration` is set (here or inherited),
//! default 500 ms; `exponentialMaxWaitDuration` is used only together with
//! `exponentialBackoffMultiplier`; with randomised exponential backoff the
//! cap is applied after the randomisation; an instance with no
//! `baseConfig` inherits `configs.default`; `maxRetryAttempts` was removed
//! in 2.0.0.

use super::spring::{self, Prop};
use super::{DocCtx, Facts};
use crate::duration::{human, parse_spring};
use crate::model::*;
use crate::rules::normalise_key;
use crate::rules::settings::{invalid_setting, unknown_setting};
use crate::source::Span;
use std::collections::BTreeMap;
use std::time::Duration;

const DEFAULT_CONFIG: &str = "default";

/// Retry instance properties as Resilience4j spells them.
pub const RETRY_KEYS: &[&str] = &[
    "maxAttempts",
    "waitDuration",
    "intervalBiFunction",
    "retryExceptionPredicate",
    "resultPredicate",
    "consumeResultBeforeRetryAttempt",
    "retryExceptions",
    "ignoreExceptions",
    "eventConsumerBufferSize",
    "enableExponentialBackoff",
    "exponentialBackoffMultiplier",
    "exponentialMaxWaitDuration",
    "enableRandomizedWait",
    "randomizedWaitFactor",
    "failAfterMaxAttempts",
    "baseConfig",
];

/// Keys that older versions read and 2.x silently ignores.
const REMOVED_KEYS: &[(&str, &str, &str)] = &[(
    "maxRetryAttempts",
    "maxAttempts",
    "removed in Resilience4j 2.0.0",
)];

pub const TIMELIMITER_KEYS: &[&str] = &[
    "timeoutDuration",
    "cancelRunningFuture",
    "eventConsumerBufferSize",
    "baseConfig",
];

/// Extract from one YAML document.
pub fn extract_yaml(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    if !root.is_map() {
        return false;
    }
    let props = spring::flatten_yaml(root);
    extract_props(&props, facts)
}

/// Extract from flattened Spring properties. Returns whether any
/// Resilience4j retry or time-limiter setting was present.
pub fn extract_props(props: &[Prop], facts: &mut Facts) -> bool {
    let caller = spring::application_name(props);
    if let Some((name, span)) = &caller {
        facts.services.push(ServiceDecl {
            name: name.clone(),
            span: *span,
            source: "spring.application.name".into(),
            hosts: Vec::new(),
        });
    }
    let retry = group(props, "retry");
    let limiter = group(props, "timelimiter");
    if retry.is_empty() && limiter.is_empty() {
        return false;
    }
    let caller = caller.map(|(n, _)| n);
    retry_policies(&retry, caller.as_deref(), facts);
    time_limiters(&limiter, facts);
    true
}

/// One `configs.<name>` or `instances.<name>` block.
#[derive(Debug, Default)]
struct Block<'p> {
    name: String,
    is_config: bool,
    name_span: Span,
    /// Property (normalised key) -> its props (several for lists).
    fields: BTreeMap<String, Vec<&'p Prop>>,
}

impl<'p> Block<'p> {
    fn one(&self, key: &str) -> Option<&'p Prop> {
        self.fields
            .get(&normalise_key(key))
            .and_then(|v| v.last().copied())
    }
}

/// Blocks of `resilience4j.<module>.{configs,instances,backends}.<name>`.
fn group<'p>(props: &'p [Prop], module: &str) -> Vec<Block<'p>> {
    let mut blocks: Vec<Block<'p>> = Vec::new();
    for p in props {
        if p.segments.len() < 5 || p.normalised(0) != "resilience4j" || p.normalised(1) != module {
            continue;
        }
        let kind = p.normalised(2);
        let is_config = match kind.as_str() {
            "configs" => true,
            "instances" | "backends" => false,
            _ => continue,
        };
        let name = p.segments[3].trim_matches(['[', ']']).to_string();
        let field = normalise_key(&p.segments[4]);
        let idx = match blocks
            .iter()
            .position(|b| b.name == name && b.is_config == is_config)
        {
            Some(i) => i,
            None => {
                blocks.push(Block {
                    name: name.clone(),
                    is_config,
                    name_span: p.seg_spans.get(3).copied().unwrap_or(p.key_span),
                    fields: BTreeMap::new(),
                });
                blocks.len() - 1
            }
        };
        let b = &mut blocks[idx];
        b.fields.entry(field).or_default().push(p);
    }
    blocks
}

/// A field resolved through inheritance: the prop and whether it was
/// inherited.
struct Field<'p> {
    prop: &'p Prop,
    inherited: bool,
}

impl Field<'_> {
    fn located<T>(&self, value: T, span: Span) -> Located<T> {
        if self.inherited {
            Located::inherited(value, span)
        } else {
            Located::written(value, span)
        }
    }
}

/// Resolve `key` on `b`, then on its base config chain.
fn resolve<'p>(blocks: &'p [Block<'p>], b: &'p Block<'p>, key: &str) -> Option<Field<'p>> {
    let mut cur = b;
    let mut inherited = false;
    for _ in 0..16 {
        if let Some(p) = cur.one(key) {
            return Some(Field { prop: p, inherited });
        }
        if key == "maxAttempts"
            && let Some(p) = cur.one("maxRetryAttempts")
        {
            return Some(Field { prop: p, inherited });
        }
        cur = base_of(blocks, cur)?;
        inherited = true;
    }
    None
}

fn base_of<'p>(blocks: &'p [Block<'p>], b: &'p Block<'p>) -> Option<&'p Block<'p>> {
    match b.one("baseConfig") {
        Some(p) => blocks
            .iter()
            .find(|c| c.is_config && c.name == p.value.trim()),
        None if b.name != DEFAULT_CONFIG => blocks
            .iter()
            .find(|c| c.is_config && c.name == DEFAULT_CONFIG),
        None => None,
    }
}

fn check_keys(b: &Block<'_>, known: &[&str], facts: &mut Facts, section: &str) {
    for (field, props) in &b.fields {
        let p = props[0];
        let written = &p.segments[4];
        if let Some((old, new, why)) = REMOVED_KEYS
            .iter()
            .find(|(k, ..)| normalise_key(k) == *field)
            && section == "retry"
        {
            facts
                .diagnostics
                .push(unknown_setting::removed(p.key_span, written, old, new, why));
            continue;
        }
        if !known.iter().any(|k| normalise_key(k) == *field) {
            facts.diagnostics.push(unknown_setting::unknown_key(
                p.key_span,
                written,
                &format!("a Resilience4j {section} instance"),
                known.iter().copied(),
            ));
        }
    }
}

fn duration(p: &Prop, key: &str, facts: &mut Facts) -> Option<Duration> {
    match parse_spring(&p.value, Duration::from_millis(1)) {
        Ok(d) => Some(d),
        Err(e) => {
            facts
                .diagnostics
                .push(invalid_setting::value(p.value_span, key, &p.value, &e));
            None
        }
    }
}

fn number(p: &Prop, key: &str, facts: &mut Facts) -> Option<f64> {
    match p.value.trim().parse::<f64>() {
        Ok(f) if f.is_finite() => Some(f),
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                p.value_span,
                key,
                &p.value,
                "not a number",
            ));
            None
        }
    }
}

fn boolean(p: &Prop) -> Option<bool> {
    match p.value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn retry_policies(blocks: &[Block<'_>], caller: Option<&str>, facts: &mut Facts) {
    for b in blocks {
        check_keys(b, RETRY_KEYS, facts, "retry");
        if let Some(p) = b.one("baseConfig") {
            let target = p.value.trim();
            if !blocks.iter().any(|c| c.is_config && c.name == target) {
                let names: Vec<&str> = blocks
                    .iter()
                    .filter(|c| c.is_config)
                    .map(|c| c.name.as_str())
                    .collect();
                facts.diagnostics.push(invalid_setting::missing_reference(
                    p.value_span,
                    "baseConfig",
                    target,
                    "retry config",
                    names.iter().copied(),
                ));
            }
        }
    }
    for b in blocks {
        let policy = retry_policy(blocks, b, caller, facts);
        facts.policies.push(policy);
    }
}

fn retry_policy(
    blocks: &[Block<'_>],
    b: &Block<'_>,
    caller: Option<&str>,
    facts: &mut Facts,
) -> RetryPolicy {
    let root = b.name_span;
    // Validation is reported once, where the value is written.
    let own = |key: &str| resolve(blocks, b, key).filter(|f| !f.inherited);

    // Attempts.
    let attempts = match resolve(blocks, b, "maxAttempts") {
        Some(f) => {
            let key = f.prop.segments[4].clone();
            let count = match f.prop.value.trim().parse::<i64>() {
                Ok(n) if n >= 1 => AttemptCount::Finite(n as u64),
                // 0 means "not set" to the property binder.
                Ok(0) => AttemptCount::Finite(3),
                Ok(n) => {
                    if !f.inherited {
                        facts.diagnostics.push(invalid_setting::value(
                            f.prop.value_span,
                            &key,
                            &f.prop.value,
                            &format!("`{n}` is below 1, the least Resilience4j accepts"),
                        ));
                    }
                    AttemptCount::Unknown
                }
                Err(_) if is_placeholder(&f.prop.value) => AttemptCount::Unknown,
                Err(_) => {
                    if !f.inherited {
                        facts.diagnostics.push(invalid_setting::value(
                            f.prop.value_span,
                            &key,
                            &f.prop.value,
                            "not a whole number",
                        ));
                    }
                    AttemptCount::Unknown
                }
            };
            f.located(
                Attempts {
                    count,
                    written_as: format!("{key}: {}", f.prop.value.trim()),
                },
                f.prop.span(),
            )
        }
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(3),
                written_as: "maxAttempts: 3 (default)".into(),
            },
            root,
        ),
    };

    let mut policy = RetryPolicy::new(System::Resilience4j, root, attempts);
    policy.name = Some(if b.is_config {
        format!("configs.{}", b.name)
    } else {
        b.name.clone()
    });
    policy.scope.caller = caller.map(str::to_string);
    // A Resilience4j instance wraps whatever code uses it: the requests it
    // retries are not known from the configuration.
    policy.methods = Located::default_at(Methods::Unknown, root);

    // Delay and jitter.
    let wait = resolve(blocks, b, "waitDuration");
    let wait_d = wait.as_ref().and_then(|f| {
        let d = duration(f.prop, "waitDuration", &mut Facts::default());
        if d.is_none() && !f.inherited {
            let _ = duration(f.prop, "waitDuration", facts);
        }
        d
    });
    let flag = |key: &str| resolve(blocks, b, key).filter(|f| boolean(f.prop) == Some(true));
    let exp = flag("enableExponentialBackoff");
    let rnd = flag("enableRandomizedWait");
    let mult = resolve(blocks, b, "exponentialBackoffMultiplier");
    let factor = resolve(blocks, b, "randomizedWaitFactor");
    let cap = resolve(blocks, b, "exponentialMaxWaitDuration");
    let mult_v = mult
        .as_ref()
        .and_then(|f| f.prop.value.trim().parse::<f64>().ok());
    let factor_v = factor
        .as_ref()
        .and_then(|f| f.prop.value.trim().parse::<f64>().ok());
    let cap_v = cap
        .as_ref()
        .and_then(|f| parse_spring(&f.prop.value, Duration::from_millis(1)).ok());

    // Validate the written values.
    if let Some(f) = own("exponentialBackoffMultiplier")
        && let Some(m) = number(f.prop, "exponentialBackoffMultiplier", facts)
        && m <= 0.0
    {
        facts.diagnostics.push(invalid_setting::value(
            f.prop.value_span,
            "exponentialBackoffMultiplier",
            &f.prop.value,
            "must be greater than 0",
        ));
    }
    if let Some(f) = own("randomizedWaitFactor")
        && let Some(r) = number(f.prop, "randomizedWaitFactor", facts)
        && !(0.0..1.0).contains(&r)
    {
        facts.diagnostics.push(invalid_setting::value(
            f.prop.value_span,
            "randomizedWaitFactor",
            &f.prop.value,
            "must be in [0, 1)",
        ));
    }
    if let Some(f) = own("exponentialMaxWaitDuration") {
        let _ = duration(f.prop, "exponentialMaxWaitDuration", facts);
    }
    for key in [
        "enableExponentialBackoff",
        "enableRandomizedWait",
        "failAfterMaxAttempts",
    ] {
        if let Some(f) = own(key)
            && boolean(f.prop).is_none()
            && !is_placeholder(&f.prop.value)
        {
            facts.diagnostics.push(invalid_setting::value(
                f.prop.value_span,
                key,
                &f.prop.value,
                "not `true` or `false`",
            ));
        }
    }

    match (&wait, wait_d) {
        (Some(w), Some(base)) => {
            let wait_span = w.prop.span();
            let factor_ok = factor_v.filter(|r| (0.0..1.0).contains(r));
            let mult_ok = mult_v.filter(|m| *m > 0.0);
            if let Some(e) = &exp {
                let multiplier = mult_ok.unwrap_or(1.5);
                // The cap is only used together with an explicit multiplier
                // (and, when randomised, an explicit factor).
                let cap_used = mult_ok.is_some() && (rnd.is_none() || factor_ok.is_some());
                let span = mult
                    .as_ref()
                    .filter(|_| mult_ok.is_some())
                    .map_or(e.prop.span(), |m| m.prop.span());
                policy.delay = e.located(
                    Delay::Exponential {
                        base,
                        multiplier,
                        cap: if cap_used { cap_v } else { None },
                    },
                    span.cover(e.prop.span()),
                );
                if cap_used && cap_v.is_some() {
                    policy.cap_order = CapOrder::AfterJitter;
                }
            } else {
                policy.delay = w.located(Delay::Fixed { delay: base }, wait_span);
            }
            policy.jitter = match &rnd {
                Some(r) => {
                    let f = factor_ok.unwrap_or(0.5);
                    let span = factor
                        .as_ref()
                        .filter(|_| factor_ok.is_some())
                        .map_or(r.prop.span(), |fp| fp.prop.span());
                    r.located(Jitter::Proportional { factor: f }, span)
                }
                None => match resolve(blocks, b, "enableRandomizedWait") {
                    Some(off) => off.located(Jitter::None, off.prop.span()),
                    None => Located::default_at(Jitter::None, wait_span),
                },
            };
        }
        (Some(_), None) => {
            policy.delay = Located::default_at(Delay::Unknown, root);
            policy.jitter = Located::default_at(Jitter::Unknown, root);
        }
        (None, _) => {
            policy.delay = Located::default_at(
                Delay::Fixed {
                    delay: Duration::from_millis(500),
                },
                root,
            );
            policy.jitter = Located::default_at(Jitter::None, root);
        }
    }

    // What is retried.
    let mut conditions = Vec::new();
    let mut listed = false;
    let mut cur = Some(b);
    let mut inherited = false;
    while let Some(block) = cur {
        if let Some(ps) = block.fields.get(&normalise_key("retryExceptions")) {
            listed = true;
            for p in ps {
                for (name, span) in split_list(p) {
                    let c = Condition::Exception(name);
                    conditions.push(if inherited {
                        Located::inherited(c, span)
                    } else {
                        Located::written(c, span)
                    });
                }
            }
            break;
        }
        cur = base_of(blocks, block);
        inherited = true;
    }
    let predicate = resolve(blocks, b, "retryExceptionPredicate").is_some()
        || resolve(blocks, b, "resultPredicate").is_some();
    if predicate {
        conditions.push(Located::default_at(Condition::Predicate, root));
    }
    policy.retry_on = if listed || predicate {
        let span = conditions.first().map_or(root, |c| c.span);
        Located::written(RetryOn::Listed { conditions }, span)
    } else if let Some(base) = base_of(blocks, b) {
        // The base config's default, reported once where the base is.
        Located::inherited(RetryOn::AllErrors, base.name_span)
    } else {
        Located::default_at(RetryOn::AllErrors, root)
    };
    policy
}

/// Items of a list property: `a, b` or one per `[i]`.
fn split_list(p: &Prop) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for part in p.value.split(',') {
        let trimmed = part.trim();
        let lead = part.len() - part.trim_start().len();
        if !trimmed.is_empty() {
            let start = p.value_span.start + offset + lead;
            // Quoted YAML scalars shift offsets; fall back to the value span.
            let span = if p.value_span.len() == p.value.len() {
                Span::new(start, start + trimmed.len())
            } else {
                p.value_span
            };
            out.push((trimmed.to_string(), span));
        }
        offset += part.len() + 1;
    }
    out
}

fn is_placeholder(v: &str) -> bool {
    v.contains("${") || v.contains("#{")
}

fn time_limiters(blocks: &[Block<'_>], facts: &mut Facts) {
    for b in blocks {
        check_keys(b, TIMELIMITER_KEYS, facts, "time limiter");
    }
    for b in blocks {
        let timeout = match resolve(blocks, b, "timeoutDuration") {
            Some(f) => {
                let d = if f.inherited {
                    parse_spring(&f.prop.value, Duration::from_millis(1)).ok()
                } else {
                    duration(f.prop, "timeoutDuration", facts)
                };
                let t = d.map_or(Timeout::Unknown, Timeout::after);
                f.located(t, f.prop.span())
            }
            None => Located::default_at(Timeout::after(Duration::from_secs(1)), b.name_span),
        };
        facts.timeouts.push(TimeoutSetting {
            system: System::Resilience4j,
            name: Some(if b.is_config {
                format!("configs.{}", b.name)
            } else {
                b.name.clone()
            }),
            what: "timelimiter".into(),
            timeout,
        });
    }
}

/// `waitDuration: 100` and the like, for messages.
pub fn describe_delay(d: &Delay) -> String {
    match d {
        Delay::Fixed { delay } => format!("a fixed {}", human(*delay)),
        Delay::Exponential {
            base, multiplier, ..
        } => {
            format!("exponential from {} x{}", human(*base), multiplier)
        }
        _ => "a delay".into(),
    }
}
