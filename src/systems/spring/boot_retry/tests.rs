use super::*;

fn run(text: &str) -> Facts {
    let f = crate::systems::spring::properties::parse(text, true);
    let mut facts = Facts::default();
    for d in &f.documents {
        extract_props(d, Some("orders"), &mut facts);
    }
    facts
}

#[test]
fn an_openfeign_client_retryer_names_its_client() {
    let facts = run(
        "spring.cloud.openfeign.client.config.ledger.retryer=feign.Retryer.Default\nfeign.client.config.default.retryer=feign.Retryer.Default\n",
    );
    let clients: Vec<_> = facts
        .policies
        .iter()
        .map(|p| p.scope.client.clone())
        .collect();
    assert_eq!(
        clients,
        [
            Some(ClientScope::Named("ledger".into())),
            Some(ClientScope::Named("default".into()))
        ]
    );
    assert_eq!(facts.policies[0].name.as_deref(), Some("client ledger"));
}

#[test]
fn config_client_defaults_apply_with_fail_fast() {
    let facts = run(
        "spring.application.name=orders\nspring.cloud.config.fail-fast=true\nspring.cloud.config.uri=http://config:8888\n",
    );
    let p = &facts.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 1.1,
            cap: Some(Duration::from_secs(2))
        }
    );
    assert_eq!(p.scope.caller.as_deref(), Some("orders"));
    assert_eq!(p.scope.callee.as_ref().unwrap().value, "config");
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(185_000))
    );
    assert_eq!(facts.edges[0].callee, "config");
}

#[test]
fn config_client_retry_without_fail_fast_is_ignored() {
    let facts = run("spring.cloud.config.retry.max-attempts=10\n");
    assert!(facts.policies.is_empty());
    assert_eq!(facts.diagnostics.len(), 1);
    assert_eq!(facts.diagnostics[0].code, "RL901");
}

#[test]
fn config_client_intervals_are_milliseconds() {
    let facts = run(
        "spring.cloud.config.fail-fast=true\nspring.cloud.config.retry.initial-interval=1s\nspring.cloud.config.retry.use-random-policy=true\n",
    );
    assert_eq!(facts.diagnostics.len(), 1);
    assert_eq!(facts.diagnostics[0].code, "RL902");
    assert_eq!(facts.policies[0].jitter.value, Jitter::Unknown);
}

#[test]
fn rabbit_listener_retry_boot3_and_boot4() {
    let facts = run(
        "spring.rabbitmq.listener.simple.retry.enabled=true\nspring.rabbitmq.listener.simple.retry.max-attempts=5\nspring.rabbitmq.listener.simple.retry.initial-interval=2s\nspring.rabbitmq.listener.simple.retry.multiplier=2\nspring.rabbitmq.template.retry.enabled=true\nspring.rabbitmq.template.retry.max-retries=3\n",
    );
    assert_eq!(facts.policies.len(), 2);
    let l = &facts.policies[0];
    assert_eq!(l.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        l.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(10))
        }
    );
    assert_eq!(l.retry_on.value, RetryOn::AllErrors);
    assert_eq!(
        facts.policies[1].attempts.value.count,
        AttemptCount::Finite(4)
    );
    assert_eq!(
        facts.policies[1].delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
}

#[test]
fn rabbit_retry_settings_without_enabled_do_nothing() {
    let facts = run(
        "spring.rabbitmq.listener.simple.retry.max-attempts=5\nspring.rabbitmq.listener.retry.enabled=true\n",
    );
    assert!(facts.policies.is_empty());
    let codes: Vec<&str> = facts.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["RL901", "RL901"]);
}

#[test]
fn kafka_retry_topic() {
    let facts = run(
        "spring.kafka.retry.topic.enabled=true\nspring.kafka.retry.topic.attempts=4\nspring.kafka.retry.topic.delay=500ms\nspring.kafka.retry.topic.multiplier=2\n",
    );
    let p = &facts.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(500),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(30))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
}

#[test]
fn stream_consumers_defaults_and_overrides() {
    let facts = run(
        "spring.cloud.stream.bindings.process-in-0.destination=orders\nspring.cloud.stream.bindings.process-out-0.destination=out\nspring.cloud.stream.bindings.audit.group=g\nspring.cloud.stream.bindings.audit.consumer.max-attempts=1\nspring.cloud.stream.default.consumer.back-off-multiplier=3\nspring.cloud.stream.bindings.x.consumer.default-retryable=false\nspring.cloud.stream.bindings.x.consumer.retryable-exceptions.java.io.IOException=true\n",
    );
    let names: Vec<&str> = facts
        .policies
        .iter()
        .map(|p| p.name.as_deref().unwrap())
        .collect();
    assert_eq!(
        names,
        ["binding audit", "binding process-in-0", "binding x"]
    );
    assert_eq!(
        facts.policies[0].attempts.value.count,
        AttemptCount::Finite(1)
    );
    let p = &facts.policies[1];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 3.0,
            cap: Some(Duration::from_secs(10))
        }
    );
    let RetryOn::Listed { conditions } = &facts.policies[2].retry_on.value else {
        panic!("{:?}", facts.policies[2].retry_on)
    };
    assert_eq!(
        conditions[0].value,
        Condition::Exception("java.io.IOException".into())
    );
}

#[test]
fn a_config_client_without_retry_has_an_edge_of_one_attempt() {
    let facts = run("spring.config.import=optional:configserver:http://config:8888\n");
    assert!(facts.policies.is_empty());
    assert_eq!(facts.edges.len(), 1);
    assert_eq!(facts.edges[0].callee, "config");
    assert!(facts.edges[0].policies.is_empty());
    // Retry settings ignored without fail-fast: still the one call.
    let facts = run(
        "spring.cloud.config.uri=http://config:8888\nspring.cloud.config.retry.max-attempts=10\n",
    );
    assert!(facts.policies.is_empty());
    assert_eq!(facts.edges.len(), 1);
    // A client turned off calls nothing; this machine is no service.
    let facts = run(
        "spring.cloud.config.enabled=false\nspring.config.import=optional:configserver:http://config:8888\n",
    );
    assert!(facts.edges.is_empty());
    let facts = run("spring.config.import=configserver:http://localhost:8888\n");
    assert!(facts.edges.is_empty());
}
