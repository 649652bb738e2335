//! The Spring family: Spring Retry, Spring Framework 7's core retry, and
//! the Spring projects that configure retries through properties (Spring
//! Cloud Gateway, Spring AMQP, Spring Cloud Config, Spring Kafka, Spring
//! Cloud Stream).

pub mod boot_retry;
pub mod cloud_gateway;
pub mod cloud_gateway_mvc;
pub mod extract;
pub mod placeholders;
pub mod properties;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

/// How to name the retried exceptions in Spring Retry and Spring
/// Framework 7.
const PREDICATE: &str = "name the transient exceptions in `retryFor` (`includes` on Spring Framework 7's `@Retryable` or `RetryPolicy.builder()`)";

// system: SpringRetry
pub static SPRING_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `@Backoff(delay = .., multiplier = 2, random = true)`",
        predicate: PREDICATE,
        edits: super::edit::FixEdits {
            jitter: Some(backoff_random),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Retry", Layer::Application)
};

// system: SpringFramework
pub static SPRING_FRAMEWORK: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `jitter` on `@Retryable`, or call `.jitter(..)` on `RetryPolicy.builder()`",
        predicate: PREDICATE,
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Framework", Layer::Application)
};

// system: SpringCloudGateway
pub static SPRING_CLOUD_GATEWAY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "give the Retry filter a `backoff` (`firstBackoff`, `factor` 2, `maxBackoff`) and `jitter: {randomFactor: 0.5}` (newer Spring Cloud Gateway releases)",
        bound: "set the Retry filter's `retries` to 2-3",
        edits: super::edit::FixEdits {
            drop_conditions: Some(super::edit::drop_listed_in_config),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Cloud Gateway", Layer::Application)
};

/// Spring AMQP and Spring Cloud Stream listener retries: Spring Boot
/// properties over a Spring Retry `RetryTemplate`.
const LISTENER_FIXES: Fixes = Fixes {
    jitter: "supply a retry interceptor or `RetryTemplate` bean with an `ExponentialRandomBackOffPolicy` (Spring Boot has no jitter property for it)",
    bound: "set `max-attempts` (Spring Boot 4: `max-retries`) to 3-5 and send what still fails to a dead-letter queue",
    ..Fixes::GENERIC
};

// system: SpringAmqp
pub static SPRING_AMQP: SystemSpec = SystemSpec {
    fixes: LISTENER_FIXES,
    ..SystemSpec::plain("Spring AMQP", Layer::Application)
};

// system: SpringCloudStream - Spring Cloud Stream consumer retry (`consumer.max-attempts`).
pub static SPRING_CLOUD_STREAM: SystemSpec = SystemSpec {
    fixes: LISTENER_FIXES,
    ..SystemSpec::plain("Spring Cloud Stream", Layer::Application)
};

// system: SpringCloudConfig - Spring Cloud Config client retry (`spring.cloud.config.retry`).
pub static SPRING_CLOUD_CONFIG: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `spring.cloud.config.retry.use-random-policy: true`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Cloud Config client", Layer::Application)
};

// system: SpringAi - Spring AI's model-client retry (`spring.ai.retry`).
pub static SPRING_AI: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "declare a `RetryTemplate` bean of your own with an `ExponentialRandomBackOffPolicy` (Spring AI has no jitter property; the bean replaces Spring AI's)",
        bound: "set `spring.ai.retry.max-attempts` to 3-5",
        predicate: "list the statuses worth retrying in `spring.ai.retry.on-http-codes`, and the others in `spring.ai.retry.exclude-on-http-codes`",
        explicit: "write `spring.ai.retry.max-attempts` and `spring.ai.retry.backoff.*` explicitly, so that the retry is visible and counted",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring AI", Layer::Application)
};

// system: SpringKafka - Spring Kafka non-blocking retry topics (`spring.kafka.retry.topic`).
pub static SPRING_KAFKA: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `spring.kafka.retry.topic.random-back-off: true` with a `multiplier` above 1",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Kafka", Layer::Application)
};

/// Spring Retry's defaults (spring-retry 2.x,
/// `src/main/java/org/springframework/retry/`).
pub mod retry {
    /// Attempts when none are set, the first call included
    /// (`policy/SimpleRetryPolicy.java`: `DEFAULT_MAX_ATTEMPTS = 3`; also
    /// `@Retryable(maxAttempts)` and `RetryTemplateBuilder`).
    pub const MAX_ATTEMPTS: u64 = 3;
    /// The fixed back-off in milliseconds (`annotation/Backoff.java`:
    /// `value() default 1000`; `backoff/FixedBackOffPolicy.java`:
    /// `DEFAULT_BACK_OFF_PERIOD = 1000L`).
    pub const BACKOFF_MS: f64 = 1000.0;
    /// `ExponentialBackOffPolicy`'s initial interval in milliseconds
    /// (`backoff/ExponentialBackOffPolicy.java`:
    /// `DEFAULT_INITIAL_INTERVAL = 100L`).
    pub const EXPONENTIAL_INITIAL_MS: f64 = 100.0;
    /// `ExponentialBackOffPolicy`'s multiplier (the same file:
    /// `DEFAULT_MULTIPLIER = 2`).
    pub const EXPONENTIAL_MULTIPLIER: f64 = 2.0;
    /// `ExponentialBackOffPolicy`'s maximum interval in milliseconds (the
    /// same file: `DEFAULT_MAX_INTERVAL = 30000L`); `@Backoff` uses it when
    /// `maxDelay` is not above the delay.
    pub const EXPONENTIAL_MAX_MS: f64 = 30_000.0;
    /// `UniformRandomBackOffPolicy`'s bounds in milliseconds
    /// (`backoff/UniformRandomBackOffPolicy.java`:
    /// `DEFAULT_BACK_OFF_MIN_PERIOD = 500L`, `DEFAULT_BACK_OFF_MAX_PERIOD =
    /// 1500L`).
    pub const UNIFORM_MIN_MS: f64 = 500.0;
    pub const UNIFORM_MAX_MS: f64 = 1500.0;
}

/// The defaults of the retry properties that Spring Boot and Spring Cloud
/// bind (see [`crate::systems::spring::boot_retry`]).
pub mod boot {
    use std::time::Duration;

    /// Spring Cloud Config client, `spring.cloud.config.retry.*`
    /// (spring-cloud-config-client `RetryProperties`: `maxAttempts = 6`,
    /// `initialInterval = 1000`, `multiplier = 1.1`, `maxInterval = 2000`).
    pub const CONFIG_MAX_ATTEMPTS: u64 = 6;
    pub const CONFIG_INITIAL_INTERVAL: Duration = Duration::from_millis(1000);
    pub const CONFIG_MULTIPLIER: f64 = 1.1;
    pub const CONFIG_MAX_INTERVAL: Duration = Duration::from_millis(2000);
    /// `spring.cloud.config.request-read-timeout`
    /// (`ConfigClientProperties`: `requestReadTimeout = (60 * 1000 * 3) + 5000`).
    pub const CONFIG_READ_TIMEOUT: Duration = Duration::from_millis(185_000);

    /// Spring AMQP retries, `spring.rabbitmq.*.retry.*` (spring-boot
    /// `RabbitProperties.Retry`: `maxAttempts = 3`, `initialInterval =
    /// Duration.ofMillis(1000)`, `multiplier = 1.0`, `maxInterval =
    /// Duration.ofMillis(10000)`).
    pub const AMQP_MAX_ATTEMPTS: u64 = 3;
    pub const AMQP_INITIAL_INTERVAL: Duration = Duration::from_secs(1);
    pub const AMQP_MULTIPLIER: f64 = 1.0;
    pub const AMQP_MAX_INTERVAL: Duration = Duration::from_secs(10);

    /// Spring Kafka retry topics, `spring.kafka.retry.topic.*` (spring-boot
    /// `KafkaProperties.Retry.Topic`: `attempts = 3`, `delay =
    /// Duration.ofSeconds(1)`, `multiplier = 0` (a fixed delay), `maxDelay =
    /// Duration.ZERO`); a `max-delay` below the delay means Spring Retry's
    /// `ExponentialBackOffPolicy` maximum of 30 s.
    pub const KAFKA_ATTEMPTS: u64 = 3;
    pub const KAFKA_DELAY: Duration = Duration::from_secs(1);
    pub const KAFKA_MULTIPLIER: f64 = 0.0;
    pub const KAFKA_MAX_DELAY_FALLBACK: Duration =
        Duration::from_millis(super::retry::EXPONENTIAL_MAX_MS as u64);

    /// Spring Cloud Stream consumer retry (spring-cloud-stream
    /// `ConsumerProperties`: `maxAttempts = 3`, `backOffInitialInterval =
    /// 1000`, `backOffMaxInterval = 10000`, `backOffMultiplier = 2.0`).
    pub const STREAM_MAX_ATTEMPTS: u64 = 3;
    pub const STREAM_INITIAL_INTERVAL: Duration = Duration::from_millis(1000);
    pub const STREAM_MULTIPLIER: f64 = 2.0;
    pub const STREAM_MAX_INTERVAL: Duration = Duration::from_millis(10_000);
}

/// Substrings that make a YAML or `.properties` file worth reading as
/// Spring configuration: Resilience4j, any `retry`/`Retry` setting (Spring
/// Cloud Gateway, Config client, Rabbit, Kafka), the Config client's
/// `fail-fast`, and Spring Cloud Stream bindings.
pub const SPRING_NEEDLES: &[&str] = &[
    "resilience4j",
    "etry",
    "fail-fast",
    // Spring Cloud Gateway routes (each has predicates), retried or not.
    "predicates",
    "failFast",
    "fail_fast",
    "bindings",
    // Data-store connection settings (`extract::stores`): calls.
    "mongodb",
    "datasource",
    "redis",
    "rabbitmq",
    "kafka",
    "r2dbc",
    // Spring AI model providers (`boot_retry::ai`).
    "spring.ai",
    "openai",
    "anthropic",
    "mistralai",
    "ollama",
    "deepseek",
];

/// Spring Boot's YAML configuration (Resilience4j's properties included).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "spring",
    needles: SPRING_NEEDLES,
    read: extract::extract_yaml,
    order: 20,
}];

/// `random = true` in the written `@Backoff(..)` of an exponential
/// back-off (RL203): a written `random = false` turned to `true`, else
/// `, random = true` before the annotation's closing parenthesis. With a
/// multiplier above 1 Spring Retry then uses
/// `ExponentialRandomBackOffPolicy` (spring-projects/spring-retry
/// `BackOffPolicyBuilder.build`: `if (this.multiplier != null &&
/// this.multiplier > 0) { ... if (this.random) { policy = new
/// ExponentialRandomBackOffPolicy(); } }`). `None` for a fixed delay
/// (`random` does nothing there), a `randomExpression`, or an annotation
/// whose parentheses cannot be matched.
fn backoff_random(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use crate::fix::Edit;
    use crate::source::Span;
    let p = site.policy;
    if !matches!(p.delay.value, crate::model::Delay::Exponential { multiplier, .. } if multiplier > 1.0)
        || !p.delay.is_written()
    {
        return None;
    }
    let s = p.delay.span;
    let written = site.text.get(s.start..s.end)?;
    let open = s.start + written.find("@Backoff")? + "@Backoff".len();
    let rest = &site.text[open..s.end];
    let paren = open + rest.len() - rest.trim_start().len();
    if site.text.as_bytes().get(paren) != Some(&b'(') {
        return None;
    }
    // The matching `)`, strings and characters skipped.
    let mut depth = 0i32;
    let mut quote = None;
    let mut close = None;
    for (i, c) in site.text[paren..s.end].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    close = Some(paren + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let args = &site.text[paren + 1..close];
    if args.contains("randomExpression") {
        return None;
    }
    if let Some(at) = args.find("random") {
        let after = args[at + "random".len()..].trim_start().strip_prefix('=')?;
        let value = after.trim_start();
        if !value.starts_with("false") {
            return None;
        }
        let start = paren + 1 + args.len() - value.len();
        return Some(vec![Edit::new(
            site.file,
            Span::new(start, start + "false".len()),
            "true",
        )]);
    }
    if args.trim().is_empty() {
        return None;
    }
    let end = paren + 1 + args.trim_end().len();
    Some(vec![Edit::insert(site.file, end, ", random = true")])
}
