//! The Spring family: Spring Retry, Spring Framework 7's core retry, and
//! the Spring projects that configure retries through properties (Spring
//! Cloud Gateway, Spring AMQP, Spring Cloud Config, Spring Kafka, Spring
//! Cloud Stream).

use super::{Fixes, SystemSpec};
use crate::model::Layer;

/// How to name the retried exceptions in Spring Retry and Spring
/// Framework 7.
const PREDICATE: &str = "name the transient exceptions in `retryFor` (`includes` on Spring Framework 7's `@Retryable` or `RetryPolicy.builder()`)";

pub static SPRING_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `@Backoff(delay = .., multiplier = 2, random = true)`",
        predicate: PREDICATE,
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Retry", Layer::Application)
};

pub static SPRING_FRAMEWORK: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `jitter` on `@Retryable`, or call `.jitter(..)` on `RetryPolicy.builder()`",
        predicate: PREDICATE,
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Framework", Layer::Application)
};

pub static SPRING_CLOUD_GATEWAY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "give the Retry filter a `backoff` (`firstBackoff`, `factor` 2, `maxBackoff`) and `jitter: {randomFactor: 0.5}` (newer Spring Cloud Gateway releases)",
        bound: "set the Retry filter's `retries` to 2-3",
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

pub static SPRING_AMQP: SystemSpec = SystemSpec {
    fixes: LISTENER_FIXES,
    ..SystemSpec::plain("Spring AMQP", Layer::Application)
};

pub static SPRING_CLOUD_STREAM: SystemSpec = SystemSpec {
    fixes: LISTENER_FIXES,
    ..SystemSpec::plain("Spring Cloud Stream", Layer::Application)
};

pub static SPRING_CLOUD_CONFIG: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `spring.cloud.config.retry.use-random-policy: true`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Cloud Config client", Layer::Application)
};

pub static SPRING_KAFKA: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `spring.kafka.retry.topic.random-back-off: true` with a `multiplier` above 1",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Spring Kafka", Layer::Application)
};
