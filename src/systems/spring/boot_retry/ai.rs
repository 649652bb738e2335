//! Spring AI's model clients: a unit configured for a model provider
//! (`spring.ai.openai.*`, `spring.ai.anthropic.*`, ...) calls that
//! provider's API through Spring AI's shared `RetryTemplate`, which retries
//! with `spring.ai.retry.*` whether or not any of it is written.
//!
//! Defaults, spring-projects/spring-ai
//! `auto-configurations/common/spring-ai-autoconfigure-retry/src/main/java/org/springframework/ai/retry/autoconfigure/SpringAiRetryProperties.java`
//! (596f6f65): `max-attempts` 10, `backoff.initial-interval` 2000 ms,
//! `backoff.multiplier` 5, `backoff.max-interval` 3 min, `on-client-errors`
//! false. `SpringAiRetryAutoConfiguration.java` (064a6cbd) builds Spring
//! Retry's `RetryTemplate.builder().maxAttempts(..)` (attempts, the first
//! included) retrying `TransientAiException`, which its error handler
//! throws for every error status but 4xx (4xx too with `on-client-errors`),
//! and no random back-off. The model calls are POSTs, retried as such.

use super::{Block, attempts_setting, block, boolean, check_keys, duration, exponential};
use crate::extract::Facts;
use crate::model::calls::Protocol;
use crate::model::*;
use crate::source::Span;
use crate::systems::spring::extract::Prop;
use std::time::Duration;

pub(super) const MAX_ATTEMPTS: u64 = 10;
pub(super) const INITIAL_INTERVAL: Duration = Duration::from_millis(2000);
pub(super) const MULTIPLIER: f64 = 5.0;
pub(super) const MAX_INTERVAL: Duration = Duration::from_secs(180);

/// The via of a model client's call.
pub const VIA: &str = "Spring AI model client";

const RETRY_KEYS: &[&str] = &[
    "maxAttempts",
    "backoff.initialInterval",
    "backoff.multiplier",
    "backoff.maxInterval",
    "onClientErrors",
    "onHttpCodes",
    "excludeOnHttpCodes",
];

/// A provider: its key path under `spring.ai`, the key of its address and
/// its default address (none: the provider has no public default, or a
/// local one such as Ollama's `http://localhost:11434`, which is no
/// service).
struct Provider {
    path: &'static [&'static str],
    address: &'static str,
    default: Option<&'static str>,
}

const PROVIDERS: &[Provider] = &[
    // spring-ai `models/spring-ai-openai/.../api/common/OpenAiApiConstants.java`
    // (0a9b25c0): `DEFAULT_BASE_URL = "https://api.openai.com"`.
    Provider {
        path: &["openai"],
        address: "baseUrl",
        default: Some("https://api.openai.com"),
    },
    // spring-ai `models/spring-ai-anthropic/.../api/AnthropicApi.java`
    // (00649b27): `DEFAULT_BASE_URL = "https://api.anthropic.com"`.
    Provider {
        path: &["anthropic"],
        address: "baseUrl",
        default: Some("https://api.anthropic.com"),
    },
    Provider {
        path: &["azure", "openai"],
        address: "endpoint",
        default: None,
    },
    Provider {
        path: &["mistralai"],
        address: "baseUrl",
        default: None,
    },
    Provider {
        path: &["ollama"],
        address: "baseUrl",
        default: None,
    },
    Provider {
        path: &["deepseek"],
        address: "baseUrl",
        default: None,
    },
];

/// The model APIs the document's providers call, each with the span that
/// configures it.
fn targets(props: &[Prop]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    for p in PROVIDERS {
        let prefix: Vec<&str> = ["spring", "ai"].iter().chain(p.path).copied().collect();
        let settings = block(props, &prefix, 4);
        let Some(first) = settings.fields.values().min_by_key(|x| x.key_span.start) else {
            continue;
        };
        // The chat client's own address over the provider's.
        let written = settings
            .get(&format!("chat.{}", p.address))
            .or_else(|| settings.get(p.address));
        let (url, span) = match written {
            Some(w) => (w.value.trim().to_string(), w.value_span),
            None => match p.default {
                Some(d) => (
                    d.to_string(),
                    first
                        .seg_spans
                        .get(prefix.len() - 1)
                        .copied()
                        .unwrap_or(first.key_span),
                ),
                None => continue,
            },
        };
        // An unresolved `${..}` or a bare name: no address to draw.
        if url.contains("${") || !url.contains("://") {
            continue;
        }
        if !out.iter().any(|(u, _)| *u == url) {
            out.push((url, span));
        }
    }
    out
}

/// Spring AI's retry and the calls of the document's model clients.
pub(super) fn model_clients(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let targets = targets(props);
    let retry = block(props, &["spring", "ai", "retry"], 2);
    if targets.is_empty() {
        // Retry settings without a provider here (another profile or a
        // shared file may configure it): checked, no call drawn.
        if !retry.is_empty() {
            check_keys(&retry, RETRY_KEYS, "`spring.ai.retry`", facts);
        }
        return false;
    }
    check_keys(&retry, RETRY_KEYS, "`spring.ai.retry`", facts);
    let root = retry.span.unwrap_or(targets[0].1);
    let mut policy = policy(&retry, root, facts);
    policy.scope.caller = caller.map(str::to_string);
    if let [(url, span)] = targets.as_slice() {
        policy.scope.callee = Some(Located::written(crate::extract::short_host(url), *span));
    }
    facts.policies.push(policy);
    let idx = facts.policies.len() - 1;
    for (url, span) in targets {
        if !crate::extract::calls::names_service(&url) {
            continue;
        }
        facts.edges.push(CallEdge {
            client: None,
            caller: caller.map(str::to_string),
            callee: crate::extract::short_host(&url),
            span,
            policies: vec![idx],
            via: VIA.into(),
            protocol: Some(Protocol::Http),
        });
    }
    true
}

fn policy(retry: &Block<'_>, root: Span, facts: &mut Facts) -> RetryPolicy {
    let attempts = attempts_setting(
        retry,
        ["maxAttempts", "max-attempts", "spring.ai.retry"],
        MAX_ATTEMPTS,
        root,
        facts,
    );
    let mut policy = RetryPolicy::new(System::SpringAi, root, attempts);
    policy.name = Some("spring.ai.retry".into());
    policy.delay = exponential(
        [
            retry.get("backoff.initialInterval"),
            retry.get("backoff.multiplier"),
            retry.get("backoff.maxInterval"),
        ],
        ["initial-interval", "multiplier", "max-interval"],
        (INITIAL_INTERVAL, MULTIPLIER, MAX_INTERVAL),
        duration,
        root,
        facts,
    );
    policy.jitter = Located::default_at(Jitter::None, root);
    let client = retry.get("onClientErrors");
    let from = match client.map(|p| (p, boolean(p, "on-client-errors", facts))) {
        Some((_, Some(true))) => 400,
        _ => 500,
    };
    let status = Condition::Status { from, to: 599 };
    policy.retry_on = match client {
        Some(p) => Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(status, p.span())],
            },
            p.span(),
        ),
        None => Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(status, root)],
            },
            root,
        ),
    };
    policy.methods = Located::default_at(Methods::All, root);
    policy
}
