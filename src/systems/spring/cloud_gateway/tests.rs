use super::*;

fn run_yaml(text: &str) -> Facts {
    let f = crate::yaml::parse(text);
    let props = crate::systems::spring::extract::flatten_yaml(f.root(&f.documents[0]));
    let mut facts = Facts::default();
    assert!(extract_props(&props, Some("gateway"), &mut facts));
    facts
}

fn run_props(text: &str) -> Facts {
    let f = crate::systems::spring::properties::parse(text, true);
    let mut facts = Facts::default();
    assert!(extract_props(&f.documents[0], Some("gateway"), &mut facts));
    facts
}

#[test]
fn shortcut_form_reads_positional_args() {
    let facts = run_yaml(
        "spring:\n  cloud:\n    gateway:\n      routes:\n        - id: r\n          uri: lb://orders\n          filters:\n            - Retry=3,INTERNAL_SERVER_ERROR,GET,10ms,50ms,2,false\n",
    );
    let p = &facts.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(10),
            multiplier: 2.0,
            cap: Some(Duration::from_millis(50))
        }
    );
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert!(conditions.iter().any(|c| c.value == Condition::status(500)));
    assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
    assert_eq!(p.scope.callee.as_ref().unwrap().value, "orders");
    assert_eq!(facts.edges.len(), 1);
    assert_eq!(facts.edges[0].policies, [0]);
    assert_eq!(p.scope.caller.as_deref(), Some("gateway"));
}

#[test]
fn full_form_defaults_and_empty_backoff() {
    let facts = run_yaml(
        "spring.cloud.gateway.routes:\n  - id: r\n    uri: http://payments:8080\n    filters:\n      - name: Retry\n        args:\n          methods: GET,POST\n          backoff:\n",
    );
    let p = &facts.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert!(p.attempts.is_default());
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(5),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(
        p.methods.value,
        Methods::Set(vec!["GET".into(), "POST".into()])
    );
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions.len(),
        3,
        "SERVER_ERROR, IOException, TimeoutException"
    );
    assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
}

#[test]
fn no_backoff_means_no_delay() {
    let facts = run_props(
        "spring.cloud.gateway.default-filters[0]=Retry\nspring.cloud.gateway.routes[0].id=a\nspring.cloud.gateway.routes[0].uri=lb://a\n",
    );
    let p = &facts.policies[0];
    assert_eq!(p.delay.value, Delay::None);
    assert_eq!(p.name.as_deref(), Some("default-filters"));
    assert_eq!(facts.edges[0].policies, [0]);
}

#[test]
fn properties_statuses_series_and_client_errors() {
    let text = "spring.cloud.gateway.routes[0].id=r\nspring.cloud.gateway.routes[0].uri=lb://x\nspring.cloud.gateway.routes[0].filters[0].name=Retry\nspring.cloud.gateway.routes[0].filters[0].args.statuses=NOT_FOUND, 503\nspring.cloud.gateway.routes[0].filters[0].args.series=CLIENT_ERROR\nspring.cloud.gateway.routes[0].filters[0].args.retries=2\n";
    let facts = run_props(text);
    let p = &facts.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    let values: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
    assert!(values.contains(&&Condition::status(404)));
    assert!(values.contains(&&Condition::status(503)));
    assert!(values.contains(&&Condition::Status { from: 400, to: 499 }));
    let nf = conditions
        .iter()
        .find(|c| c.value == Condition::status(404))
        .unwrap();
    assert_eq!(&text[nf.span.start..nf.span.end], "NOT_FOUND");
}

#[test]
fn invalid_values_are_reported() {
    let facts = run_yaml(
        "spring.cloud.gateway.routes:\n  - id: r\n    uri: lb://x\n    filters:\n      - name: Retry\n        args:\n          retries: 0\n      - name: Retry\n        args:\n          statuses: BAD_GATEWY\n          methods: FETCH\n          backof:\n            factor: 2\n",
    );
    let msgs: Vec<&str> = facts
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(msgs.iter().any(|m| m.contains("`retries`")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("BAD_GATEWY")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("FETCH")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("backof")), "{msgs:?}");
    assert_eq!(facts.policies.len(), 1);
}

#[test]
fn response_timeouts_bound_each_try() {
    let facts = run_yaml(
        "spring:\n  cloud:\n    gateway:\n      httpclient:\n        response-timeout: 5s\n      routes:\n        - id: a\n          uri: lb://a\n          filters: [Retry]\n        - id: b\n          uri: lb://b\n          metadata:\n            response-timeout: 200\n          filters: [Retry]\n",
    );
    let t: Vec<Timeout> = facts
        .policies
        .iter()
        .map(|p| p.per_try_timeout.as_ref().unwrap().value)
        .collect();
    assert_eq!(
        t,
        [
            Timeout::after(Duration::from_secs(5)),
            Timeout::after(Duration::from_millis(200))
        ]
    );
}

#[test]
fn quoted_shortcut_items_keep_exact_spans() {
    let text = "spring.cloud.gateway.routes:\n  - id: r\n    uri: lb://x\n    filters:\n      - \"Retry=2,NOT_FOUND\"\n";
    let facts = run_yaml(text);
    let RetryOn::Listed { conditions } = &facts.policies[0].retry_on.value else {
        panic!()
    };
    let nf = conditions
        .iter()
        .find(|c| c.value == Condition::status(404))
        .unwrap();
    assert_eq!(&text[nf.span.start..nf.span.end], "NOT_FOUND");
}

#[test]
fn other_filters_are_not_retry() {
    let f = crate::yaml::parse(
        "spring.cloud.gateway.routes:\n  - id: r\n    uri: lb://x\n    filters:\n      - StripPrefix=1\n",
    );
    let props = crate::systems::spring::extract::flatten_yaml(f.root(&f.documents[0]));
    let mut facts = Facts::default();
    // No retry policy; the route is a call all the same (one attempt).
    assert!(extract_props(&props, None, &mut facts));
    assert!(facts.policies.is_empty());
    assert_eq!(facts.edges.len(), 1);
    assert_eq!(facts.edges[0].callee, "x");
    assert!(facts.edges[0].policies.is_empty());
}
