//! Spring Cloud Stream consumer bindings: `max-attempts`, the back-off
//! and the retryable exceptions of each binding, with the
//! `spring.cloud.stream.default.consumer` defaults.

use super::*;

/// A consumer binding's settings: its own `consumer.*`, then
/// `spring.cloud.stream.default.consumer.*`.
struct Consumer<'p> {
    pub(super) name: String,
    pub(super) span: Span,
    pub(super) own: Block<'p>,
    /// `retryable-exceptions.<class>=bool`
    pub(super) exceptions: Vec<&'p Prop>,
}

pub(super) fn stream(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let base = ["spring", "cloud", "stream"];
    let mut defaults = Block::default();
    let mut default_exceptions = Vec::new();
    let mut bindings: BTreeMap<String, Consumer<'_>> = BTreeMap::new();
    for p in crate::systems::spring::extract::under(props, &base) {
        let n = base.len();
        match p.normalised(n).as_str() {
            "default" if p.normalised_is(n + 1, "consumer") && p.segments.len() > n + 2 => {
                if p.normalised_is(n + 2, "retryableexceptions") {
                    default_exceptions.push(p);
                } else {
                    defaults.add(&p.segments[n + 2], p);
                }
            }
            "bindings" if p.segments.len() > n + 2 => {
                let name = p.segments[n + 1].trim_matches(['[', ']']).to_string();
                let field = p.normalised(n + 2);
                let consumerish = field == "consumer" || field == "group" || is_input_name(&name);
                let entry = bindings.entry(name.clone()).or_insert_with(|| Consumer {
                    name: name.clone(),
                    span: p.seg_spans.get(n + 1).copied().unwrap_or(p.key_span),
                    own: Block::default(),
                    exceptions: Vec::new(),
                });
                if field == "consumer" && p.segments.len() > n + 3 {
                    if p.normalised_is(n + 3, "retryableexceptions") {
                        entry.exceptions.push(p);
                    } else {
                        entry.own.add(&p.segments[n + 3], p);
                    }
                }
                if consumerish && entry.own.span.is_none() && field != "consumer" {
                    // Mark as a consumer without settings of its own.
                    entry.own.span = Some(entry.span);
                }
            }
            _ => {}
        }
    }
    let consumers: Vec<&Consumer<'_>> =
        bindings.values().filter(|c| c.own.span.is_some()).collect();
    if consumers.is_empty() && defaults.is_empty() {
        return false;
    }
    check_keys(
        &defaults,
        STREAM_RETRY_KEYS_ALL,
        "`spring.cloud.stream.default.consumer`",
        facts,
    );
    for c in &consumers {
        check_keys(
            &c.own,
            STREAM_RETRY_KEYS_ALL,
            &format!("the consumer of binding `{}`", c.name),
            facts,
        );
        let get = |key: &str| c.own.get(key).or_else(|| defaults.get(key));
        let root = c.span;
        let ma = get("maxAttempts");
        let attempts = match ma.and_then(|p| whole(p, "max-attempts", 1, facts).map(|n| (p, n))) {
            Some((p, n)) => locate(
                Attempts {
                    count: AttemptCount::Finite(n as u64),
                    written_as: format!("{}: {n}", p.key()),
                },
                &[Some(p)],
                root,
            ),
            None => Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(boot::STREAM_MAX_ATTEMPTS),
                    written_as: format!(
                        "consumer.max-attempts: {} (default)",
                        boot::STREAM_MAX_ATTEMPTS
                    ),
                },
                root,
            ),
        };
        let mut policy = RetryPolicy::new(System::SpringCloudStream, root, attempts);
        policy.name = Some(format!("binding {}", c.name));
        policy.scope.caller = caller.map(str::to_string);
        if let Some(t) = get("retryTemplateName") {
            policy.delay = Located::written(Delay::Custom, t.span());
            policy.jitter = Located::written(Jitter::Unknown, t.span());
        } else {
            policy.delay = exponential(
                [
                    get("backOffInitialInterval"),
                    get("backOffMultiplier"),
                    get("backOffMaxInterval"),
                ],
                [
                    "back-off-initial-interval",
                    "back-off-multiplier",
                    "back-off-max-interval",
                ],
                (
                    boot::STREAM_INITIAL_INTERVAL,
                    boot::STREAM_MULTIPLIER,
                    boot::STREAM_MAX_INTERVAL,
                ),
                millis,
                root,
                facts,
            );
            policy.jitter = Located::default_at(Jitter::None, policy.delay.span);
        }
        // What is retried.
        let dr = get("defaultRetryable");
        let default_retryable = dr
            .and_then(|p| boolean(p, "default-retryable", facts))
            .unwrap_or(true);
        let exceptions: Vec<&Prop> = if c.exceptions.is_empty() {
            default_exceptions.clone()
        } else {
            c.exceptions.clone()
        };
        let mut listed: Vec<Located<Condition>> = Vec::new();
        let mut excluded = false;
        for p in &exceptions {
            let class = p.segments[p.segments.len().saturating_sub(1)..]
                .join(".")
                .trim_matches(['[', ']'])
                .to_string();
            // A class name splits on dots: rebuild it from the segments
            // after `retryable-exceptions`.
            let at = p
                .segments
                .iter()
                .position(|s| normalise_key(s) == "retryableexceptions")
                .map_or(class, |i| {
                    p.segments[i + 1..]
                        .iter()
                        .map(|s| s.trim_matches(['[', ']']))
                        .collect::<Vec<_>>()
                        .join(".")
                });
            // The class name's own span: the segments after the map key.
            let class_span = p
                .segments
                .iter()
                .position(|s| normalise_key(s) == "retryableexceptions")
                .and_then(|i| p.seg_spans.get(i + 1).zip(p.seg_spans.last()))
                .map_or(p.span(), |(a, b)| a.cover(*b));
            match boolean(p, "retryable-exceptions", facts) {
                Some(true) => listed.push(Located::written(Condition::Exception(at), class_span)),
                Some(false) => excluded = true,
                None => {}
            }
        }
        policy.retry_on = if default_retryable {
            if excluded {
                Located::written(
                    RetryOn::Listed {
                        conditions: vec![Located::written(Condition::Predicate, root)],
                    },
                    root,
                )
            } else {
                Located::default_at(RetryOn::AllErrors, root)
            }
        } else if listed.is_empty() {
            Located::written(RetryOn::Nothing, dr.map_or(root, |p| p.span()))
        } else {
            let span = listed[0].span;
            Located::written(RetryOn::Listed { conditions: listed }, span)
        };
        facts.policies.push(policy);
    }
    true
}

/// Every key a consumer block may hold (not only retry ones), so that
/// unknown-key reports stay about real typos.
const STREAM_RETRY_KEYS_ALL: &[&str] = &[
    "maxAttempts",
    "backOffInitialInterval",
    "backOffMaxInterval",
    "backOffMultiplier",
    "defaultRetryable",
    "retryableExceptions",
    "retryTemplateName",
    "autoStartup",
    "concurrency",
    "partitioned",
    "instanceCount",
    "instanceIndex",
    "instanceIndexList",
    "headerMode",
    "useNativeDecoding",
    "multiplex",
    "batchMode",
    "pollableSourceTopicPattern",
];

/// Functional input bindings are `<function>-in-<n>`; `input` is the
/// legacy default.
fn is_input_name(name: &str) -> bool {
    name == "input"
        || name
            .rsplit_once("-in-")
            .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
