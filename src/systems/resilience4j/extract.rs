//! Resilience4j retry and time-limiter settings from Spring configuration
//! (`resilience4j.retry.configs|instances|backends.<name>.*`,
//! `resilience4j.timelimiter.*`), read from flattened properties so that
//! YAML and `.properties` share this one interpretation.
//!
//! Semantics follow `CommonRetryConfigurationProperties.createRetryConfig`
//! and `buildConfig` (resilience4j-framework-common 2.x) with
//! `RetryConfig.Builder` and `IntervalFunction` (resilience4j-retry,
//! resilience4j-core):
//! - an instance with `baseConfig` starts from that config's built
//!   `RetryConfig`; one without inherits `configs.default` (unless it is
//!   itself named `default`); configs chain the same way;
//! - `maxAttempts` counts total attempts (default 3,
//!   `RetryConfig.DEFAULT_MAX_ATTEMPTS`); the binder rejects values below 1
//!   (`InstanceProperties.setMaxAttempts`); `maxRetryAttempts` (1.x) was
//!   removed in 2.0.0;
//! - the interval is built in `configureRetryIntervalFunction` ONLY in a
//!   block that sets `waitDuration`: a block without it keeps its base's
//!   interval, so its own `enableExponentialBackoff`, multiplier, cap and
//!   randomisation settings are ignored (reported, RL901). In the block that
//!   sets `waitDuration`, the two `enable*` flags, the multiplier and the
//!   cap may come from its bases (`ConfigUtils.mergePropertiesIfAny`);
//!   `randomizedWaitFactor` is not merged and only counts where written.
//!   `intervalBiFunction` (a class) replaces the interval; default 500 ms
//!   fixed (`RetryConfig.DEFAULT_WAIT_DURATION`);
//! - exponential backoff multiplies by `exponentialBackoffMultiplier`
//!   (default 1.5, `IntervalFunction.DEFAULT_MULTIPLIER`); randomisation is
//!   uniform in `[d(1-f), d(1+f)]` (default f 0.5); `exponentialMaxWaitDuration`
//!   is used only with an explicit multiplier (and, when randomised, an
//!   explicit factor), and then caps AFTER the randomisation
//!   (`ofExponentialRandomBackoff(.., maxInterval)` = `min(random, max)`);
//! - an interval function with an initial or maximum interval below 1 ms
//!   throws (`IntervalFunctionCompanion.checkInterval`); a plain
//!   `waitDuration: 0` means no wait;
//! - every `Throwable` is retried unless `retryExceptions`,
//!   `retryExceptionPredicate` or `resultPredicate` narrow it
//!   (`RetryConfig.Builder.createExceptionPredicate`); `ignoreExceptions`
//!   wins over `retryExceptions`;
//! - TimeLimiter: `timeoutDuration` default 1 s (`TimeLimiterConfig`),
//!   inherited through `baseConfig`/`default` the same way
//!   (`CommonTimeLimiterConfigurationProperties`).

use crate::diag::{invalid_setting, unknown_setting};
use crate::duration::{human, parse_spring};
use crate::extract::Facts;
use crate::keys::normalise_key;
use crate::model::*;
use crate::source::Span;
use crate::systems::resilience4j as r4j;
use crate::systems::spring::extract::Prop;
use std::collections::BTreeMap;
use std::time::Duration;

mod blocks;
pub mod breakers;
mod legacy;

use blocks::*;

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
    "ignoreExceptionPredicate",
];

/// Keys of `resilience4j.retry.*` and `resilience4j.timelimiter.*` beside
/// the instance maps (`CommonProperties.tags`, the Spring aspect order and
/// metrics switches).
const RETRY_SECTION_KEYS: &[&str] = &[
    "configs",
    "instances",
    "backends",
    "tags",
    "retryAspectOrder",
    "metrics",
];
const TIMELIMITER_SECTION_KEYS: &[&str] = &[
    "configs",
    "instances",
    "tags",
    "timeLimiterAspectOrder",
    "metrics",
];

pub const TIMELIMITER_KEYS: &[&str] = &[
    "timeoutDuration",
    "cancelRunningFuture",
    "eventConsumerBufferSize",
    "baseConfig",
];

/// Extract from flattened Spring properties. Returns whether any
/// Resilience4j retry, time-limiter or circuit-breaker setting was present.
pub fn extract_props(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    check_sections(props, facts);
    let retry = group(props, "retry");
    let limiter = group(props, "timelimiter");
    let breaker = group(props, "circuitbreaker");
    if retry.is_empty() && limiter.is_empty() && breaker.is_empty() {
        return false;
    }
    retry_policies(&retry, caller, facts);
    time_limiters(&limiter, facts);
    breakers::breakers(&breaker, facts);
    true
}

/// Unknown keys right under `resilience4j.retry` / `resilience4j.timelimiter`
/// (`instance:` for `instances:` drops every instance silently).
fn check_sections(props: &[Prop], facts: &mut Facts) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for p in props {
        if p.segments.len() < 3 || !p.normalised_is(0, "resilience4j") {
            continue;
        }
        let (known, what) = match p.normalised(1).as_str() {
            "retry" => (RETRY_SECTION_KEYS, "`resilience4j.retry`"),
            "timelimiter" => (TIMELIMITER_SECTION_KEYS, "`resilience4j.timelimiter`"),
            _ => continue,
        };
        let key = p.normalised(2);
        if known.iter().any(|k| normalise_key(k) == key) {
            continue;
        }
        let id = (p.normalised(1), key);
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        facts.diagnostics.push(unknown_setting::unknown_key(
            p.seg_spans.get(2).copied().unwrap_or(p.key_span),
            &p.segments[2],
            what,
            known.iter().copied(),
        ));
    }
}

/// A block's attempts along its `chain`: `maxAttempts` (default 3,
/// `RetryConfig.DEFAULT_MAX_ATTEMPTS`), or on 1.x (`legacy`) also the
/// deprecated `maxRetryAttempts`, which `maxAttempts` overrides in the
/// same block (`RetryConfigurationProperties.buildRetryConfig`, 1.7.1).
fn attempts(chain: &[&Block<'_>], root: Span, legacy: bool) -> Located<Attempts> {
    let field = chain.iter().enumerate().find_map(|(i, block)| {
        let prop = block
            .one("maxAttempts")
            .or_else(|| block.one(legacy::KEY).filter(|_| legacy))?;
        Some(Field {
            prop,
            inherited: i > 0,
        })
    });
    match field {
        Some(f) => {
            let key = f.prop.segments[4].clone();
            let count = match f.prop.value.trim().parse::<i64>() {
                Ok(n) if (1..=i32::MAX as i64).contains(&n) => AttemptCount::Finite(n as u64),
                _ => AttemptCount::Unknown,
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
                count: AttemptCount::Finite(r4j::DEFAULT_MAX_ATTEMPTS),
                written_as: r4j::default_attempts_text(),
            },
            root,
        ),
    }
}

fn check_keys(b: &Block<'_>, known: &[&str], facts: &mut Facts, section: &str) {
    for (field, props) in &b.fields {
        let Some(p) = props.first() else { continue };
        let written = &p.segments[4];
        // `maxRetryAttempts` is reported with what it does in each
        // version, once the policies are read (`legacy`).
        if section == "retry" && *field == normalise_key(legacy::KEY) {
            continue;
        }
        if !known.iter().any(|k| normalise_key(k) == *field) {
            facts.diagnostics.push(unknown_setting::unknown_key(
                p.seg_spans[4],
                written,
                &format!("a Resilience4j {section} instance"),
                known.iter().copied(),
            ));
        }
    }
}

fn parse_duration(p: &Prop) -> Result<Duration, String> {
    parse_spring(&p.value, Duration::from_millis(1))
}

fn duration(p: &Prop, key: &str, facts: &mut Facts) -> Option<Duration> {
    match parse_duration(p) {
        Ok(d) => Some(d),
        Err(_) if is_placeholder(&p.value) => None,
        Err(e) => {
            facts
                .diagnostics
                .push(invalid_setting::value(p.value_span, key, &p.value, &e));
            None
        }
    }
}

fn number(p: &Prop) -> Option<f64> {
    p.value.trim().parse::<f64>().ok().filter(|f| f.is_finite())
}

fn boolean(p: &Prop) -> Option<bool> {
    match p.value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn retry_policies(blocks: &[Block<'_>], caller: Option<&str>, facts: &mut Facts) {
    let configs = configs(blocks);
    for b in blocks {
        check_keys(b, RETRY_KEYS, facts, "retry");
        check_base_config(blocks, &configs, b, "retry config", facts);
        validate_retry_block(b, facts);
    }
    let first = facts.policies.len();
    for b in blocks {
        let policy = retry_policy(blocks, &configs, b, caller, facts);
        // `intervalBiFunction: com.acme.RetryAfterInterval`: a class of
        // the program, whose code is read where it is declared
        // (`link::interval_functions`).
        if policy.delay.value == Delay::Custom
            && let Some(f) = b.one("intervalBiFunction")
        {
            let class = f.value.trim().rsplit(['.', '$']).next().unwrap_or("");
            if !class.is_empty() {
                facts
                    .java
                    .interval_refs
                    .push(crate::model::java_annotations::IntervalRef {
                        policy: facts.policies.len(),
                        class: class.to_string(),
                        method: None,
                        span: policy.delay.span,
                    });
            }
        }
        facts.policies.push(policy);
    }
    legacy::max_retry_attempts(blocks, &configs, first, facts);
}

fn check_base_config(
    blocks: &[Block<'_>],
    configs: &Configs,
    b: &Block<'_>,
    what: &str,
    facts: &mut Facts,
) {
    if let Some(p) = b.one("baseConfig") {
        let target = p.value.trim();
        if !configs.contains_key(target) && !is_placeholder(target) {
            let names: Vec<&str> = blocks
                .iter()
                .filter(|c| c.is_config)
                .map(|c| c.name.as_str())
                .collect();
            facts.diagnostics.push(invalid_setting::missing_reference(
                p.value_span,
                "baseConfig",
                target,
                what,
                names.iter().copied(),
            ));
        }
    }
}

/// Values the binder or the interval functions reject, reported once where
/// they are written.
fn validate_retry_block(b: &Block<'_>, facts: &mut Facts) {
    let bad = |p: &Prop, key: &str, why: &str, facts: &mut Facts| {
        if !is_placeholder(&p.value) {
            facts
                .diagnostics
                .push(invalid_setting::value(p.value_span, key, &p.value, why));
        }
    };
    for key in ["maxAttempts", "maxRetryAttempts", "eventConsumerBufferSize"] {
        if let Some(p) = b.one(key) {
            match p.value.trim().parse::<i64>() {
                Ok(n) if n > i32::MAX as i64 => {
                    bad(p, key, "larger than a Java `int` holds", facts)
                }
                Ok(n) if n < 1 => bad(
                    p,
                    key,
                    &format!("`{n}` is below 1, which Resilience4j rejects at startup"),
                    facts,
                ),
                Ok(_) => {}
                Err(_) => bad(p, key, "not a whole number", facts),
            }
        }
    }
    if let Some(p) = b.one("exponentialBackoffMultiplier") {
        match number(p) {
            Some(m) if m <= 0.0 => bad(
                p,
                "exponentialBackoffMultiplier",
                "must be greater than 0",
                facts,
            ),
            Some(_) => {}
            None => bad(p, "exponentialBackoffMultiplier", "not a number", facts),
        }
    }
    if let Some(p) = b.one("randomizedWaitFactor") {
        match number(p) {
            Some(r) if !(0.0..1.0).contains(&r) => {
                bad(p, "randomizedWaitFactor", "must be in [0, 1)", facts)
            }
            Some(_) => {}
            None => bad(p, "randomizedWaitFactor", "not a number", facts),
        }
    }
    for key in ["waitDuration", "exponentialMaxWaitDuration"] {
        if let Some(p) = b.one(key) {
            let _ = duration(p, key, facts);
        }
    }
    for key in [
        "enableExponentialBackoff",
        "enableRandomizedWait",
        "failAfterMaxAttempts",
    ] {
        if let Some(p) = b.one(key)
            && boolean(p).is_none()
        {
            bad(p, key, "not `true` or `false`", facts);
        }
    }
}

/// The interval settings a block writes that only count together with a
/// `waitDuration` in the same block.
const INTERVAL_KEYS: &[&str] = &[
    "enableExponentialBackoff",
    "exponentialBackoffMultiplier",
    "exponentialMaxWaitDuration",
    "enableRandomizedWait",
    "randomizedWaitFactor",
];

fn retry_policy(
    blocks: &[Block<'_>],
    configs: &Configs,
    b: &Block<'_>,
    caller: Option<&str>,
    facts: &mut Facts,
) -> RetryPolicy {
    let root = b.name_span;
    let chain = chain(blocks, configs, b);

    let attempts = attempts(&chain, root, false);
    let mut policy = RetryPolicy::new(System::Resilience4j, root, attempts);
    policy.name = Some(b.label());
    policy.scope.caller = caller.map(str::to_string);
    // A Resilience4j instance wraps whatever code uses it: the requests it
    // retries are not known from the configuration.
    policy.methods = Located::default_at(Methods::Unknown, root);

    // Delay and jitter: built in the nearest block that sets waitDuration
    // or intervalBiFunction; interval settings elsewhere are ignored.
    let origin = chain
        .iter()
        .position(|c| c.one("waitDuration").is_some() || c.one("intervalBiFunction").is_some());
    match origin {
        None => {
            policy.delay = Located::default_at(
                Delay::Fixed {
                    delay: r4j::DEFAULT_WAIT,
                },
                root,
            );
            policy.jitter = Located::default_at(Jitter::None, root);
        }
        Some(i) => interval(&chain[i..], i > 0, &mut policy, facts),
    }

    report_ignored_interval_settings(&chain, origin, &policy.delay.value, facts);

    // What is retried: the nearest retryExceptions list, plus predicates.
    let mut conditions = Vec::new();
    let mut listed = false;
    for (i, block) in chain.iter().enumerate() {
        if let Some(ps) = block.fields.get(&normalise_key("retryExceptions")) {
            listed = true;
            for p in ps {
                for (name, span) in split_list(p) {
                    let c = Condition::Exception(name);
                    conditions.push(if i > 0 {
                        Located::inherited(c, span)
                    } else {
                        Located::written(c, span)
                    });
                }
            }
            break;
        }
    }
    // What is never retried: the nearest ignoreExceptions list (it wins
    // over retryExceptions; RL104 reads it).
    for (i, block) in chain.iter().enumerate() {
        if let Some(ps) = block.fields.get(&normalise_key("ignoreExceptions")) {
            for p in ps {
                for (name, span) in split_list(p) {
                    let c = Condition::Exception(name);
                    policy.ignores.push(if i > 0 {
                        Located::inherited(c, span)
                    } else {
                        Located::written(c, span)
                    });
                }
            }
            break;
        }
    }
    let predicate = ["retryExceptionPredicate", "resultPredicate"]
        .iter()
        .find_map(|k| resolve(&chain, k, false));
    if let Some(f) = &predicate {
        conditions.push(f.located(Condition::Predicate, f.prop.span()));
    }
    policy.retry_on = if listed || predicate.is_some() {
        let span = conditions.first().map_or(root, |c| c.span);
        let own = conditions.iter().any(|c| c.is_written());
        let retry_on = RetryOn::Listed { conditions };
        if own {
            Located::written(retry_on, span)
        } else {
            Located::inherited(retry_on, span)
        }
    } else if chain.len() > 1 {
        // The base config's default, reported once where the root base is.
        let base = chain[chain.len() - 1];
        Located::inherited(RetryOn::AllErrors, base.name_span)
    } else {
        Located::default_at(RetryOn::AllErrors, root)
    };
    policy
}

/// Interval settings written in a block that does not build the interval
/// (no `waitDuration` of its own): Resilience4j ignores them.
fn report_ignored_interval_settings(
    chain: &[&Block<'_>],
    origin: Option<usize>,
    delay: &Delay,
    facts: &mut Facts,
) {
    let b = chain[0];
    // A config's flags are merged into the instances that inherit it
    // (`mergePropertiesIfAny`), so only an instance's are dead for sure.
    if origin == Some(0) || b.is_config {
        return;
    }
    let ignored: Vec<&Prop> = INTERVAL_KEYS.iter().filter_map(|k| b.one(k)).collect();
    let Some(first) = ignored.first() else {
        return;
    };
    let names: Vec<String> = ignored
        .iter()
        .map(|p| format!("`{}`", p.segments[4]))
        .collect();
    let from = match origin {
        Some(i) => format!(
            "it keeps the interval of `{}`: {}",
            chain[i].label(),
            describe_delay(delay)
        ),
        None => format!(
            "it keeps the default: a fixed `{}`",
            human(r4j::DEFAULT_WAIT)
        ),
    };
    let mut d = unknown_setting::ignored(
        first.span(),
        &format!(
            "{} of `{}` {} ignored: the block sets no `waitDuration`, so {from}",
            join(&names),
            b.label(),
            if names.len() == 1 { "is" } else { "are" }
        ),
        &format!(
            "set `waitDuration` in `{}` as well: Resilience4j builds the backoff only in a block that sets it",
            b.label()
        ),
    );
    for p in ignored.iter().skip(1) {
        d = d.with_related(p.span(), "also ignored");
    }
    facts.diagnostics.push(d);
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Build the delay and jitter from the block `chain[0]`, which sets
/// `waitDuration` or `intervalBiFunction`.
fn interval(chain: &[&Block<'_>], inherited: bool, policy: &mut RetryPolicy, facts: &mut Facts) {
    let d = chain[0];
    if let Some(f) = d.one("intervalBiFunction") {
        let field = Field { prop: f, inherited };
        policy.delay = field.located(Delay::Custom, f.span());
        policy.jitter = field.located(Jitter::Unknown, f.span());
        return;
    }
    let Some(w) = d.one("waitDuration") else {
        return;
    };
    let wait = Field { prop: w, inherited };
    let Ok(base) = parse_duration(w) else {
        policy.delay = wait.located(Delay::Unknown, w.span());
        policy.jitter = wait.located(Jitter::Unknown, w.span());
        return;
    };
    let flag = |key: &str| resolve(chain, key, inherited).filter(|f| boolean(f.prop) == Some(true));
    let exp = flag("enableExponentialBackoff");
    let rnd = flag("enableRandomizedWait");
    let mult = resolve(chain, "exponentialBackoffMultiplier", inherited)
        .and_then(|f| number(f.prop).filter(|m| *m > 0.0).map(|m| (m, f)));
    let cap = resolve(chain, "exponentialMaxWaitDuration", inherited)
        .and_then(|f| parse_duration(f.prop).ok().map(|c| (c, f)));
    // Not merged from the bases: only where waitDuration is.
    let factor = d
        .one("randomizedWaitFactor")
        .and_then(|p| number(p).filter(|r| (0.0..1.0).contains(r)).map(|r| (r, p)));

    let ms = |x: Duration| x.as_millis();
    let reject = |p: &Prop, key: &str, why: &str, facts: &mut Facts| {
        if !inherited {
            facts
                .diagnostics
                .push(invalid_setting::value(p.value_span, key, &p.value, why));
        }
    };
    if (exp.is_some() || rnd.is_some()) && ms(base) < 1 {
        reject(
            w,
            "waitDuration",
            "backoff and randomised waits need an interval of at least 1 ms (`IntervalFunction` rejects it at startup)",
            facts,
        );
        policy.delay = wait.located(Delay::Unknown, w.span());
        policy.jitter = wait.located(Jitter::Unknown, w.span());
        return;
    }

    match &exp {
        Some(e) => {
            let multiplier = mult.as_ref().map_or(r4j::DEFAULT_MULTIPLIER, |(m, _)| *m);
            let cap_used = mult.is_some() && (rnd.is_none() || factor.is_some());
            let cap_v = cap.as_ref().filter(|_| cap_used).map(|(c, f)| (*c, f));
            if let Some((c, f)) = &cap_v
                && ms(*c) < 1
            {
                reject(
                    f.prop,
                    "exponentialMaxWaitDuration",
                    "must be at least 1 ms (`IntervalFunction` rejects it at startup)",
                    facts,
                );
            }
            let mut span = e.prop.span();
            if let Some((_, m)) = &mult {
                span = span.cover(m.prop.span());
            }
            let delay = match cap_v {
                // A cap at or below the base: every delay is the cap.
                Some((c, _)) if c <= base && rnd.is_none() => Delay::Fixed { delay: c },
                _ => Delay::Exponential {
                    base,
                    multiplier,
                    cap: cap_v.map(|(c, _)| c),
                },
            };
            policy.delay = e.located(delay, span);
            if let Some((_, f)) = &cap_v {
                policy.delay.span = policy.delay.span.cover(f.prop.span());
                if rnd.is_some() {
                    policy.cap_order = CapOrder::AfterJitter;
                }
            }
            if inherited {
                policy.delay.provenance = Provenance::Inherited;
            }
        }
        None if base.is_zero() => {
            policy.delay = wait.located(Delay::None, w.span());
        }
        None => {
            policy.delay = wait.located(Delay::Fixed { delay: base }, w.span());
        }
    }
    policy.jitter = match &rnd {
        Some(r) => {
            let f = factor
                .as_ref()
                .map_or(r4j::DEFAULT_RANDOMIZATION_FACTOR, |(f, _)| *f);
            let span = factor.as_ref().map_or(r.prop.span(), |(_, p)| p.span());
            if f == 0.0 {
                r.located(Jitter::None, span)
            } else {
                r.located(Jitter::Proportional { factor: f }, span)
            }
        }
        None => match resolve(chain, "enableRandomizedWait", inherited) {
            Some(off) => off.located(Jitter::None, off.prop.span()),
            // No jitter setting at all: the absence is the default.
            None if inherited => Located::inherited(Jitter::None, w.span()),
            None => Located::default_at(Jitter::None, w.span()),
        },
    };
}

/// Items of a list property: `a, b` or one per `[i]`.
fn split_list(p: &Prop) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for part in p.value.split(',') {
        let trimmed = part.trim();
        let lead = part.len() - part.trim_start().len();
        if !trimmed.is_empty() {
            let start = offset + lead;
            out.push((
                trimmed.to_string(),
                p.sub_span(start..start + trimmed.len()),
            ));
        }
        offset += part.len() + 1;
    }
    out
}

fn is_placeholder(v: &str) -> bool {
    v.contains("${") || v.contains("#{")
}

fn time_limiters(blocks: &[Block<'_>], facts: &mut Facts) {
    let configs = configs(blocks);
    for b in blocks {
        check_keys(b, TIMELIMITER_KEYS, facts, "time limiter");
        check_base_config(blocks, &configs, b, "time limiter config", facts);
        if let Some(p) = b.one("timeoutDuration") {
            let _ = duration(p, "timeoutDuration", facts);
        }
    }
    for b in blocks {
        let chain = chain(blocks, &configs, b);
        let timeout = match resolve(&chain, "timeoutDuration", false) {
            Some(f) => {
                let t = parse_duration(f.prop).map_or(Timeout::Unknown, Timeout::after);
                f.located(t, f.prop.span())
            }
            None => Located::default_at(Timeout::after(Duration::from_secs(1)), b.name_span),
        };
        facts.timeouts.push(TimeoutSetting {
            system: System::Resilience4j,
            name: Some(b.label()),
            what: "timelimiter".into(),
            timeout,
        });
    }
}

/// `waitDuration: 100` and the like, for messages.
pub fn describe_delay(d: &Delay) -> String {
    match d {
        Delay::None => "no wait".into(),
        Delay::Fixed { delay } => format!("a fixed `{}`", human(*delay)),
        Delay::Exponential {
            base, multiplier, ..
        } => {
            format!("exponential from `{}` x{}", human(*base), multiplier)
        }
        Delay::Custom => "a custom `intervalBiFunction`".into(),
        _ => "its delay".into(),
    }
}

#[cfg(test)]
mod tests;
