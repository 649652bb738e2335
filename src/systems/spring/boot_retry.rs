//! Retry settings that Spring Boot and Spring Cloud bind from plain
//! properties, read from the same flattened [`Prop`] list as YAML and
//! `.properties`:
//!
//! - Spring Cloud Config client, `spring.cloud.config.retry.*`
//!   (`RetryProperties`, spring-cloud-config-client): `initial-interval`
//!   1000 ms, `multiplier` 1.1, `max-interval` 2000 ms, `max-attempts` 6
//!   (total), `use-random-policy` false; plain numbers of milliseconds. It
//!   applies only with `spring.cloud.config.fail-fast=true` (reference
//!   "Config Client Retry"). Each try is bounded by `request-read-timeout`
//!   (default 185000 ms, `ConfigClientProperties`); the call goes to
//!   `spring.cloud.config.uri` (default `http://localhost:8888`).
//! - Spring AMQP listener and template retry, `spring.rabbitmq.listener.
//!   simple|direct.retry.*` and `spring.rabbitmq.template.retry.*`
//!   (`RabbitProperties.Retry`/`ListenerRetry`, Spring Boot): off unless
//!   `enabled=true`; Boot 3.x `max-attempts` 3 counts attempts, Boot 4
//!   `max-retries` 3 counts retries; `initial-interval` 1 s,
//!   `multiplier` 1.0, `max-interval` 10 s, `stateless` true; no jitter
//!   setting; every exception is retried.
//! - Spring Kafka non-blocking retries, `spring.kafka.retry.topic.*`
//!   (`KafkaProperties.Retry.Topic`, Spring Boot): off unless `enabled`;
//!   `attempts` 3 (total), `delay` 1 s, `multiplier` 0 (fixed), `max-delay`
//!   0 (30 s when below the delay), `random-back-off` false; Boot 3.4
//!   moved them under `backoff.` (`delay`, `multiplier`, `max-delay`,
//!   `random`) and Boot 4 keeps only those, with `jitter` for `random`
//!   (`KafkaProperties.Retry.Topic.Backoff` API docs).
//! - Spring Cloud Stream consumer retry,
//!   `spring.cloud.stream.bindings.<name>.consumer.*` and
//!   `spring.cloud.stream.default.consumer.*` (`ConsumerProperties`,
//!   spring-cloud-stream): `max-attempts` 3 (total, 1 disables),
//!   `back-off-initial-interval` 1000 ms, `back-off-max-interval` 10000 ms,
//!   `back-off-multiplier` 2.0, `default-retryable` true, no jitter.
//!
//! - Spring Cloud OpenFeign's per-client retryer,
//!   `spring.cloud.openfeign.client.config.<client>.retryer` (see
//!   `openfeign` below).
//!
//! Every policy records `spring.application.name` as its caller.

use crate::diag::{invalid_setting, unknown_setting};
use crate::duration::parse_spring;
use crate::extract::Facts;
use crate::keys::normalise_key;
use crate::model::*;
use crate::source::Span;
use crate::systems::spring::boot;
use crate::systems::spring::extract::Prop;
use std::collections::BTreeMap;
use std::time::Duration;

mod ai;
mod boot4;
mod stream;

use stream::*;

/// The leaf properties of one settings block, by normalised name.
#[derive(Default)]
struct Block<'p> {
    fields: BTreeMap<String, &'p Prop>,
    /// Where the block is (its first prop), for defaults.
    span: Option<Span>,
}

impl<'p> Block<'p> {
    fn get(&self, key: &str) -> Option<&'p Prop> {
        self.fields.get(&normalise_key(key)).copied()
    }
    fn add(&mut self, leaf: &str, p: &'p Prop) {
        self.fields.insert(normalise_key(leaf), p);
        self.span = Some(self.span.map_or(p.span(), |s| s.cover(p.span())));
    }
    fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

/// The props under `prefix` whose remaining key is one segment (or two,
/// for `backoff.x`), as a block.
fn block<'p>(props: &'p [Prop], prefix: &[&str], depth: usize) -> Block<'p> {
    let mut b = Block::default();
    for p in crate::systems::spring::extract::under(props, prefix) {
        let rest = &p.segments[prefix.len()..];
        if rest.len() <= depth {
            let leaf = rest.join(".");
            b.add(&leaf, p);
        }
    }
    b
}

pub fn extract_props(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let mut found = false;
    found |= config_client(props, caller, facts);
    found |= rabbit(props, caller, facts);
    found |= kafka(props, caller, facts);
    found |= stream(props, caller, facts);
    found |= openfeign(props, caller, facts);
    found |= ai::model_clients(props, caller, facts);
    found
}

/// Spring Cloud OpenFeign's per-client retryer class,
/// `spring.cloud.openfeign.client.config.<client>.retryer`
/// (`feign.client.config.<client>.retryer` before Spring Cloud 2022.0),
/// built with its no-argument constructor: `feign.Retryer.Default` makes
/// 5 attempts (see [`crate::systems::java::extract::feign`]). Without the property
/// a client uses Spring Cloud's `Retryer.NEVER_RETRY` bean; another class
/// is the project's own, and its policy is not known here. The client name
/// is usually the callee's service name (`default` applies to every
/// client).
fn openfeign(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let mut found = false;
    let bases: [&[&str]; 2] = [
        &["spring", "cloud", "openfeign", "client", "config"],
        &["feign", "client", "config"],
    ];
    for base in bases {
        let n = base.len();
        for p in crate::systems::spring::extract::under(props, base) {
            if p.segments.len() != n + 2 || !p.normalised_is(n + 1, "retryer") {
                continue;
            }
            let class = p.value.trim();
            if !matches!(class, "feign.Retryer.Default" | "feign.Retryer$Default") {
                continue;
            }
            let client = p.segments[n].trim_matches(['[', ']']).to_string();
            let mut policy = crate::systems::java::extract::feign::default_retryer(
                p.span(),
                true,
                &format!("{}: {class} (5 attempts)", p.key()),
            );
            policy.name = Some(format!("client {client}"));
            policy.scope.client = Some(ClientScope::Named(client.clone()));
            policy.scope.caller = caller.map(str::to_string);
            if client != "default" {
                policy.scope.callee = Some(Located::written(client, p.seg_spans[n]));
            }
            facts.policies.push(policy);
            found = true;
        }
    }
    found
}

/// Read a property with `parse`: a value that does not parse is RL902,
/// unless it is a `${...}` placeholder, whose value is unknown here.
fn read<T>(
    p: &Prop,
    key: &str,
    facts: &mut Facts,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Option<T> {
    match parse(p.value.trim()) {
        Ok(v) => Some(v),
        Err(_) if p.value.contains("${") => None,
        Err(why) => {
            facts
                .diagnostics
                .push(invalid_setting::value(p.value_span, key, &p.value, &why));
            None
        }
    }
}

fn boolean(p: &Prop, key: &str, facts: &mut Facts) -> Option<bool> {
    read(p, key, facts, |v| match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err("not `true` or `false`".into()),
    })
}

fn whole(p: &Prop, key: &str, min: i64, facts: &mut Facts) -> Option<i64> {
    read(p, key, facts, |v| match v.parse::<i64>() {
        Ok(n) if n > i32::MAX as i64 => Err("larger than a Java `int` holds".into()),
        Ok(n) if n < min => Err(format!("`{n}` is below {min}")),
        Ok(n) => Ok(n),
        Err(_) => Err("not a whole number".into()),
    })
}

fn float(p: &Prop, key: &str, facts: &mut Facts) -> Option<f64> {
    read(p, key, facts, |v| {
        v.parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| "not a number".into())
    })
}

/// A `long`/`int` of milliseconds (no unit accepted).
fn millis(p: &Prop, key: &str, facts: &mut Facts) -> Option<Duration> {
    read(p, key, facts, |v| {
        v.parse::<u64>().map(Duration::from_millis).map_err(|_| {
            "a whole number of milliseconds is expected here; a unit such as `1s` fails to bind"
                .into()
        })
    })
}

/// A Spring `Duration` (unitless = milliseconds).
fn duration(p: &Prop, key: &str, facts: &mut Facts) -> Option<Duration> {
    read(p, key, facts, |v| parse_spring(v, Duration::from_millis(1)))
}

/// Report every key of `b` not in `known` (RL901).
fn check_keys(b: &Block<'_>, known: &[&str], what: &str, facts: &mut Facts) {
    for (k, p) in &b.fields {
        if !known.iter().any(|x| normalise_key(x) == *k) {
            let span = p.seg_spans.last().copied().unwrap_or(p.key_span);
            let written = p.segments.last().cloned().unwrap_or_default();
            facts.diagnostics.push(unknown_setting::unknown_key(
                span,
                &written,
                what,
                known.iter().copied(),
            ));
        }
    }
}

/// Settings of a retry that is off: reported once (RL901), they do nothing.
fn report_disabled(b: &Block<'_>, enabled: Option<&Prop>, prefix: &str, facts: &mut Facts) {
    let set: Vec<&Prop> = b
        .fields
        .iter()
        .filter(|(k, _)| k.as_str() != "enabled")
        .map(|(_, p)| *p)
        .collect();
    let Some(first) = set.iter().min_by_key(|p| p.key_span.start) else {
        return;
    };
    let why = match enabled {
        Some(e) => format!("`{}` turns it off", e.key()),
        None => format!("`{prefix}.enabled` is not `true` (it defaults to `false`)"),
    };
    facts.diagnostics.push(unknown_setting::ignored(
        first.span(),
        &format!("the `{prefix}` settings are ignored: {why}"),
        &format!("set `{prefix}.enabled=true` to turn the retry on, or remove these settings"),
    ));
}

/// `exponential x multiplier up to max`, or a fixed delay.
fn backoff(initial: Duration, multiplier: f64, max: Option<Duration>) -> Delay {
    if initial.is_zero() {
        return Delay::None;
    }
    if multiplier <= 1.0 || max.is_some_and(|m| m <= initial) {
        return Delay::Fixed {
            delay: max.map_or(initial, |m| m.min(initial)),
        };
    }
    Delay::Exponential {
        base: initial,
        multiplier,
        cap: max,
    }
}

/// How a Duration property is read: Spring `Duration` or plain milliseconds.
type ReadDuration = fn(&Prop, &str, &mut Facts) -> Option<Duration>;

/// Spring Retry's exponential back-off as one settings family writes it:
/// the initial interval, multiplier and maximum props (any may be absent),
/// their names for messages, and the family's defaults.
fn exponential(
    props: [Option<&Prop>; 3],
    names: [&str; 3],
    defaults: (Duration, f64, Duration),
    read: ReadDuration,
    root: Span,
    facts: &mut Facts,
) -> Located<Delay> {
    let [ii, mu, mi] = props;
    let initial = ii
        .and_then(|p| read(p, names[0], facts))
        .unwrap_or(defaults.0);
    let multiplier = mu
        .and_then(|p| float(p, names[1], facts))
        .unwrap_or(defaults.1);
    let max = mi
        .and_then(|p| read(p, names[2], facts))
        .unwrap_or(defaults.2);
    locate(backoff(initial, multiplier, Some(max)), &[ii, mu, mi], root)
}

/// Whether the value's located provenance is written (any of `props` set).
fn locate<T>(value: T, props: &[Option<&Prop>], fallback: Span) -> Located<T> {
    let spans: Vec<Span> = props.iter().flatten().map(|p| p.span()).collect();
    match spans.into_iter().reduce(Span::cover) {
        Some(s) => Located::written(value, s),
        None => Located::default_at(value, fallback),
    }
}

// ---------------------------------------------------------------- config

const CONFIG_RETRY_KEYS: &[&str] = &[
    "initialInterval",
    "multiplier",
    "maxInterval",
    "maxAttempts",
    "useRandomPolicy",
];

fn config_client(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let retry = block(props, &["spring", "cloud", "config", "retry"], 1);
    let cfg = block(props, &["spring", "cloud", "config"], 1);
    let fail_fast = cfg.get("failFast");
    // The config server it calls.
    let uri = cfg
        .get("uri")
        .map(|p| {
            (
                p.value.split(',').next().unwrap_or("").trim().to_string(),
                p.value_span,
            )
        })
        .or_else(|| config_import(props));
    let off = cfg
        .get("enabled")
        .is_some_and(|p| p.value.trim() == "false");
    if retry.is_empty() && fail_fast.is_none() {
        // No retry (it needs `fail-fast`, above): the client still fetches
        // its configuration from the server at startup, an edge of one
        // attempt.
        if !off {
            config_edge(uri, caller, None, facts);
        }
        return false;
    }
    check_keys(
        &retry,
        CONFIG_RETRY_KEYS,
        "`spring.cloud.config.retry`",
        facts,
    );
    let on = fail_fast.and_then(|p| boolean(p, "fail-fast", facts)) == Some(true);
    if !on {
        if !retry.is_empty() {
            let first = retry
                .fields
                .values()
                .min_by_key(|p| p.key_span.start)
                .copied();
            if let Some(first) = first {
                facts.diagnostics.push(unknown_setting::ignored(
                    first.span(),
                    "the `spring.cloud.config.retry` settings are ignored: the config client retries only with `spring.cloud.config.fail-fast=true`",
                    "set `spring.cloud.config.fail-fast=true` (and have spring-retry on the classpath), or remove these settings",
                ));
            }
        }
        if !off {
            config_edge(uri, caller, None, facts);
        }
        return !retry.is_empty();
    }
    let root = fail_fast.map_or(retry.span.unwrap_or_default(), |p| p.span());
    let attempts = attempts_setting(
        &retry,
        ["maxAttempts", "max-attempts", "spring.cloud.config.retry"],
        boot::CONFIG_MAX_ATTEMPTS,
        root,
        facts,
    );
    let mut policy = RetryPolicy::new(System::SpringCloudConfig, root, attempts);
    policy.name = Some("spring.cloud.config.retry".into());
    policy.scope.caller = caller.map(str::to_string);
    policy.delay = exponential(
        [
            retry.get("initialInterval"),
            retry.get("multiplier"),
            retry.get("maxInterval"),
        ],
        ["initial-interval", "multiplier", "max-interval"],
        (
            boot::CONFIG_INITIAL_INTERVAL,
            boot::CONFIG_MULTIPLIER,
            boot::CONFIG_MAX_INTERVAL,
        ),
        millis,
        root,
        facts,
    );
    let random = retry.get("useRandomPolicy");
    policy.jitter = match random.map(|p| (p, boolean(p, "use-random-policy", facts))) {
        // ExponentialRandomBackOffPolicy: each delay grows by a random
        // part of (multiplier - 1).
        Some((p, Some(true))) => Located::written(Jitter::Unknown, p.span()),
        Some((p, _)) => Located::written(Jitter::None, p.span()),
        None => Located::default_at(Jitter::None, root),
    };
    policy.retry_on = Located::default_at(RetryOn::AllErrors, root);
    policy.methods = Located::default_at(Methods::Set(vec!["GET".into()]), root);
    let read = cfg.get("requestReadTimeout");
    policy.per_try_timeout = Some(
        match read.and_then(|p| millis(p, "request-read-timeout", facts).map(|d| (p, d))) {
            Some((p, d)) => Located::written(Timeout::after(d), p.span()),
            None => Located::default_at(Timeout::after(boot::CONFIG_READ_TIMEOUT), root),
        },
    );
    facts.policies.push(policy);
    let idx = facts.policies.len() - 1;
    config_edge(uri, caller, Some(idx), facts);
    true
}

/// A Spring Retry block's attempts setting (`key`, spelled `label` in
/// messages; attempts with the first one counted), or `default` where none
/// is written (said as `prefix.label`).
fn attempts_setting(
    b: &Block<'_>,
    [key, label, prefix]: [&str; 3],
    default: u64,
    root: Span,
    facts: &mut Facts,
) -> Located<Attempts> {
    let written = b.get(key);
    match written.and_then(|p| whole(p, label, 1, facts).map(|n| (p, n))) {
        Some((p, n)) => Located::written(
            Attempts {
                count: AttemptCount::Finite(n as u64),
                written_as: format!("{}: {n}", p.key()),
            },
            p.span(),
        ),
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(default),
                written_as: format!("{prefix}.{label}: {default} (default)"),
            },
            root,
        ),
    }
}

/// The via of a config client's call to its server.
pub const CONFIG_CLIENT_VIA: &str = "Spring Cloud Config client";

/// The call of a config client to its server at `uri` (with the retry
/// policy `policy`, if one applies): the policy's callee, and an edge
/// where the URL names a service.
fn config_edge(
    uri: Option<(String, Span)>,
    caller: Option<&str>,
    policy: Option<usize>,
    facts: &mut Facts,
) {
    let Some((u, span)) = uri.filter(|(u, _)| u.contains("://")) else {
        return;
    };
    let callee = crate::extract::short_host(&u);
    if let Some(idx) = policy {
        facts.policies[idx].scope.callee = Some(Located::written(callee.clone(), span));
    }
    // `http://localhost:8888`: no service node (`extract::calls`); an IP
    // is kept for the graph to join to the service a manifest gives it.
    if !crate::extract::calls::names_service(&u) {
        return;
    }
    facts.edges.push(CallEdge {
        client: None,
        caller: caller.map(str::to_string),
        callee,
        span,
        policies: policy.into_iter().collect(),
        via: CONFIG_CLIENT_VIA.into(),
        // The client's requests to its server's URL (`http(s)://`).
        protocol: Some(crate::model::calls::Protocol::Http),
    });
}

/// `spring.config.import=optional:configserver:http://host:8888`.
fn config_import(props: &[Prop]) -> Option<(String, Span)> {
    crate::systems::spring::extract::under(props, &["spring", "config", "import"])
        .chain(props.iter().filter(|p| {
            p.segments.len() == 3
                && p.normalised_is(0, "spring")
                && p.normalised_is(1, "config")
                && p.normalised_is(2, "import")
        }))
        .find_map(|p| {
            // A list of locations (`optional:configserver:http://c:8888,
            // optional:file:./x.yml`): the config server's.
            p.value.split(',').find_map(|v| {
                let v = v.trim();
                let v = v.strip_prefix("optional:").unwrap_or(v);
                v.strip_prefix("configserver:")
                    .map(|u| (u.to_string(), p.value_span))
            })
        })
}

// ---------------------------------------------------------------- rabbit

const RABBIT_RETRY_KEYS: &[&str] = &[
    "enabled",
    "maxAttempts",
    "maxRetries",
    "initialInterval",
    "multiplier",
    "maxInterval",
];

fn rabbit(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let mut found = false;
    // Spring Boot 1.x: `spring.rabbitmq.listener.retry.*`, gone since 2.0.
    if let Some(p) =
        crate::systems::spring::extract::under(props, &["spring", "rabbitmq", "listener", "retry"])
            .next()
    {
        found = true;
        facts.diagnostics.push(unknown_setting::removed(
            p.seg_spans.get(3).copied().unwrap_or(p.key_span),
            "spring.rabbitmq.listener.retry",
            "spring.rabbitmq.listener.simple.retry",
            "removed in Spring Boot 2.0",
        ));
    }
    for (prefix, listener) in [
        (
            &["spring", "rabbitmq", "listener", "simple", "retry"][..],
            true,
        ),
        (
            &["spring", "rabbitmq", "listener", "direct", "retry"][..],
            true,
        ),
        (&["spring", "rabbitmq", "template", "retry"][..], false),
    ] {
        let b = block(props, prefix, 1);
        if b.is_empty() {
            continue;
        }
        found = true;
        let name = prefix.join(".");
        let mut known = RABBIT_RETRY_KEYS.to_vec();
        if listener {
            known.push("stateless");
        }
        check_keys(&b, &known, &format!("`{name}`"), facts);
        let enabled = b.get("enabled");
        if enabled.and_then(|p| boolean(p, "enabled", facts)) != Some(true) {
            report_disabled(&b, enabled, &name, facts);
            continue;
        }
        let root = enabled.map_or(b.span.unwrap_or_default(), |p| p.span());
        let ma = b.get("maxAttempts");
        let mr = b.get("maxRetries");
        if let (Some(a), Some(_)) = (ma, mr) {
            facts.diagnostics.push(unknown_setting::removed(
                a.seg_spans.last().copied().unwrap_or(a.key_span),
                &a.key(),
                "max-retries",
                "replaced by `max-retries` (which counts retries) in Spring Boot 4",
            ));
        }
        let attempts = if let Some(p) = mr {
            match whole(p, "max-retries", 0, facts) {
                Some(n) => Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n as u64 + 1),
                        written_as: format!("{}: {n}", p.key()),
                    },
                    p.span(),
                ),
                None => Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: p.key(),
                    },
                    p.span(),
                ),
            }
        } else if let Some(p) = ma {
            match whole(p, "max-attempts", 1, facts) {
                Some(n) => Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n as u64),
                        written_as: format!("{}: {n}", p.key()),
                    },
                    p.span(),
                ),
                None => Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: p.key(),
                    },
                    p.span(),
                ),
            }
        } else {
            Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(boot::AMQP_MAX_ATTEMPTS),
                    written_as: format!(
                        "{name}.max-attempts: {} (default)",
                        boot::AMQP_MAX_ATTEMPTS
                    ),
                },
                root,
            )
        };
        let mut policy = RetryPolicy::new(System::SpringAmqp, root, attempts);
        policy.name = Some(name.clone());
        policy.scope.caller = caller.map(str::to_string);
        policy.delay = exponential(
            [
                b.get("initialInterval"),
                b.get("multiplier"),
                b.get("maxInterval"),
            ],
            ["initial-interval", "multiplier", "max-interval"],
            (
                boot::AMQP_INITIAL_INTERVAL,
                boot::AMQP_MULTIPLIER,
                boot::AMQP_MAX_INTERVAL,
            ),
            duration,
            root,
            facts,
        );
        policy.jitter = Located::default_at(Jitter::None, policy.delay.span);
        policy.retry_on = Located::default_at(RetryOn::AllErrors, root);
        let index = facts.policies.len();
        facts.policies.push(policy);
        boot4::rabbit_keys(&name, index, root, ma, mr, facts);
    }
    found
}

// ---------------------------------------------------------------- kafka

const KAFKA_TOPIC_KEYS: &[&str] = &[
    "enabled",
    "attempts",
    "delay",
    "multiplier",
    "maxDelay",
    "randomBackOff",
    "backoff.delay",
    "backoff.multiplier",
    "backoff.maxDelay",
    "backoff.random",
    "backoff.jitter",
];

fn kafka(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let prefix = ["spring", "kafka", "retry", "topic"];
    let b = block(props, &prefix, 2);
    if b.is_empty() {
        return false;
    }
    let name = prefix.join(".");
    check_keys(&b, KAFKA_TOPIC_KEYS, &format!("`{name}`"), facts);
    let enabled = b.get("enabled");
    if enabled.and_then(|p| boolean(p, "enabled", facts)) != Some(true) {
        report_disabled(&b, enabled, &name, facts);
        return true;
    }
    let root = enabled.map_or(b.span.unwrap_or_default(), |p| p.span());
    let attempts = attempts_setting(
        &b,
        ["attempts", "attempts", &name],
        boot::KAFKA_ATTEMPTS,
        root,
        facts,
    );
    let mut policy = RetryPolicy::new(System::SpringKafka, root, attempts);
    policy.name = Some(name.clone());
    policy.scope.caller = caller.map(str::to_string);
    let pick = |a: &str, b2: &str| b.get(b2).or_else(|| b.get(a));
    let de = pick("delay", "backoff.delay");
    let mu = pick("multiplier", "backoff.multiplier");
    let md = pick("maxDelay", "backoff.maxDelay");
    let rnd = pick("randomBackOff", "backoff.random");
    let jit = b.get("backoff.jitter");
    let delay = de
        .and_then(|p| duration(p, "delay", facts))
        .unwrap_or(boot::KAFKA_DELAY);
    let multiplier = mu
        .and_then(|p| float(p, "multiplier", facts))
        .unwrap_or(boot::KAFKA_MULTIPLIER);
    let max = md.and_then(|p| duration(p, "max-delay", facts));
    let random = rnd.and_then(|p| boolean(p, "random-back-off", facts)) == Some(true);
    let d = if multiplier > 0.0 {
        // A max-delay below the delay means the 30 s default.
        let cap = max
            .filter(|m| *m >= delay)
            .unwrap_or(boot::KAFKA_MAX_DELAY_FALLBACK);
        backoff(delay, multiplier, Some(cap))
    } else if delay.is_zero() {
        Delay::None
    } else {
        Delay::Fixed { delay }
    };
    policy.delay = locate(d, &[de, mu, md], root);
    let jitter_d = jit.and_then(|p| duration(p, "jitter", facts));
    policy.jitter = match (rnd, jit) {
        (Some(p), _) if random => Located::written(Jitter::Unknown, p.span()),
        (_, Some(p)) if jitter_d.is_some_and(|j| !j.is_zero()) => {
            Located::written(Jitter::Unknown, p.span())
        }
        (Some(p), _) => Located::written(Jitter::None, p.span()),
        _ => Located::default_at(Jitter::None, policy.delay.span),
    };
    policy.retry_on = Located::default_at(RetryOn::AllErrors, root);
    facts.policies.push(policy);
    true
}

// ---------------------------------------------------------------- stream
#[cfg(test)]
mod tests;
