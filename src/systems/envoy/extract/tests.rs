use super::*;
use crate::extract::Syntax;
use crate::systems::extract as run;
use std::path::Path;

fn facts(text: &str) -> Facts {
    run(Path::new("envoy.yaml"), text, Syntax::Yaml)
}

fn codes(f: &Facts) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

const BOOTSTRAP: &str = r#"
static_resources:
  listeners:
  - name: l
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          route_config:
            virtual_hosts:
            - name: vh
              domains: ["*"]
              retry_policy:
                retry_on: 5xx
                num_retries: 4
              routes:
              - match: {prefix: "/a"}
                route:
                  cluster: payments
                  timeout: 2s
                  retry_policy:
                    retry_on: connect-failure,retriable-status-codes
                    retriable_status_codes: [503]
                    num_retries: 2
                    per_try_timeout: 0.5s
                    retry_back_off: {base_interval: 0.1s}
              - match:
                  prefix: "/b"
                  headers:
                  - name: ":method"
                    string_match: {exact: POST}
                route: {cluster: payments}
  clusters:
  - name: payments
    connect_timeout: 1s
    circuit_breakers:
      thresholds:
      - max_retries: 10
        retry_budget:
          budget_percent: {value: 25}
    load_assignment:
      cluster_name: payments
      endpoints:
      - lb_endpoints:
        - endpoint:
            address:
              socket_address: {address: payments.prod.svc.cluster.local, port_value: 80}
"#;

#[test]
fn bootstrap_routes_clusters_and_inheritance() {
    let f = facts(BOOTSTRAP);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 3, "vh own + 2 routes");
    let a = &f.policies[1];
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        a.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(500))
    );
    assert_eq!(
        a.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert_eq!(
        a.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(100),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(1))
        }
    );
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!()
    };
    assert!(conditions.iter().any(|c| c.value == Condition::status(503)));
    assert_eq!(a.scope.callee.as_ref().unwrap().value, "payments");
    assert_eq!(
        a.budget.as_ref().unwrap().value,
        Budget::Ratio {
            ratio: 0.25,
            min_per_second: None
        }
    );
    assert!(a.platform_backoff);
    let b = &f.policies[2];
    assert_eq!(b.attempts.provenance, Provenance::Inherited);
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(b.methods.value, Methods::Set(vec!["POST".into()]));
    assert_eq!(
        b.overall_timeout.as_ref().unwrap().value,
        Timeout::after(DEFAULT_ROUTE_TIMEOUT)
    );
    assert!(b.overall_timeout.as_ref().unwrap().is_default());
    assert_eq!(b.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
    assert_eq!(f.edges.len(), 2);
    assert_eq!(f.edges[0].callee, "payments");
    assert_eq!(f.services[0].name, "payments");
}

#[test]
fn proto_json_camel_case_and_int64_strings() {
    let text = r#"{"name": "r", "virtualHosts": [{"name": "v", "domains": ["*"], "routes": [
          {"match": {"prefix": "/"}, "route": {"cluster": "c", "timeout": "3s",
           "retryPolicy": {"retryOn": "gateway-error", "numRetries": "5",
             "hostSelectionRetryMaxAttempts": "3", "perTryTimeout": "1s"}}}]}]}"#;
    let f = run(Path::new("routes.json"), text, Syntax::Json);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(f.policies[0].budget_site, BudgetSite::Unseen);
}

#[test]
fn no_retry_on_retries_nothing() {
    let text = "virtual_hosts:\n- name: v\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: c\n      retry_policy:\n        num_retries: 3\n";
    let f = facts(text);
    assert_eq!(f.policies[0].retry_on.value, RetryOn::Nothing);
    assert!(!f.policies[0].retries());
    assert_eq!(codes(&f), ["RL902"]);
    assert!(f.diagnostics[0].message.contains("retries nothing"));
    assert_eq!(
        f.diagnostics[0].severity,
        Some(crate::diag::Severity::Warning)
    );
}

#[test]
fn bad_values_are_reported() {
    let text = "virtual_hosts:\n- name: v\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: c\n      timeout: 250ms\n      retry_policy:\n        retry_on: 5xx,gateway-eror\n        num_retries: -1\n        retry_back_off: {max_interval: 1s}\n        retry_on_typo: x\n";
    let f = facts(text);
    let mut c = codes(&f);
    c.sort();
    assert_eq!(
        c,
        ["RL901", "RL902", "RL902", "RL902", "RL902"],
        "{:?}",
        f.diagnostics
    );
    assert!(
        f.diagnostics
            .iter()
            .any(|d| d.message.contains("`0.25s`") || d.message.contains("250ms"))
    );
    assert!(
        f.diagnostics
            .iter()
            .any(|d| d.help.contains("gateway-error"))
    );
}

#[test]
fn circuit_breaker_map_is_rejected() {
    let text = "static_resources:\n  clusters:\n  - name: c\n    connect_timeout: 1s\n    circuit_breakers:\n      thresholds:\n        max_retries: 3\n";
    let f = facts(text);
    assert_eq!(codes(&f), ["RL902"]);
    assert!(
        f.diagnostics[0]
            .message
            .contains("`thresholds` is a mapping")
    );
}

#[test]
fn retry_4xx_is_409_and_request_methods_restrict() {
    let text = "virtual_hosts:\n- name: v\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: c\n      retry_policy:\n        retry_on: retriable-4xx,reset\n        retriable_request_headers:\n        - name: ':method'\n          safe_regex_match: {regex: 'GET|HEAD'}\n";
    let f = facts(text);
    let p = &f.policies[0];
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions[0].value, Condition::status(409));
    assert_eq!(
        p.methods.value,
        Methods::Set(vec!["GET".into(), "HEAD".into()])
    );
}

#[test]
fn hedge_on_per_try_timeout_is_a_hedge() {
    let text = "virtual_hosts:\n- name: v\n  hedge_policy: {hedge_on_per_try_timeout: true}\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: c\n      retry_policy: {retry_on: 5xx, per_try_timeout: 1s}\n";
    let f = facts(text);
    assert_eq!(f.policies[0].kind, PolicyKind::Hedge);
}

#[test]
fn legacy_v1_json() {
    let text = r#"{"listeners": [{"filters": [{"name": "http_connection_manager", "config": {"route_config": {"virtual_hosts": [{"name": "b", "domains": ["*"], "routes": [{"prefix": "/", "cluster": "backend", "timeout_ms": 0, "retry_policy": {"retry_on": "5xx", "num_retries": 3, "per_try_timeout_ms": 500}}]}]}}}]}],
          "cluster_manager": {"clusters": [{"name": "backend", "connect_timeout_ms": 250, "type": "strict_dns", "lb_type": "round_robin", "hosts": [{"url": "tcp://backend:8080"}]}]}}"#;
    let f = run(Path::new("envoy.json"), text, Syntax::Json);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(500))
    );
    assert_eq!(f.edges[0].callee, "backend");
}

#[test]
fn kubernetes_objects_and_unknown_shapes() {
    let f = facts(
        "apiVersion: projectcontour.io/v1\nkind: HTTPProxy\nspec:\n  routes:\n  - retryPolicy: {count: 3}\n",
    );
    assert!(f.policies.is_empty() && f.extractors.is_empty());
    let f = facts("virtual_hosts: 3\n");
    assert_eq!(codes(&f), ["RL903"]);
    let f = facts("virtual_hosts:\n- name: v\n  routes:\n  - match: {prefix: /}\n    bogus: 1\n");
    assert_eq!(codes(&f), ["RL903"]);
}

#[test]
fn envoy_in_a_config_map() {
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: envoy}\ndata:\n  envoy.yaml: |\n    static_resources:\n      listeners:\n      - name: l\n        filter_chains:\n        - filters:\n          - name: hcm\n            typed_config:\n              route_config:\n                virtual_hosts:\n                - name: v\n                  routes:\n                  - match: {prefix: /}\n                    route:\n                      cluster: c\n                      retry_policy: {retry_on: 5xx, num_retries: 7}\n";
    let f = facts(text);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
    assert_eq!(
        &text[p.attempts.span.start..p.attempts.span.end],
        "num_retries: 7"
    );
    assert_eq!(f.edges[0].policies, vec![0]);
    assert_eq!(&text[f.edges[0].span.start..f.edges[0].span.end], "c");
}

#[test]
fn durations() {
    assert_eq!(as_seconds(Duration::from_millis(250)), "0.25s");
    assert_eq!(camel("retry_back_off"), "retryBackOff");
}

#[test]
fn deep_and_odd_input_does_not_panic() {
    let deep = format!("virtual_hosts: {}{}", "[".repeat(200), "]".repeat(200));
    let _ = facts(&deep);
    let _ = facts("static_resources: [1, 2]\n");
    let _ = facts(
        "- virtual_hosts:\n  - routes: [{route: {retry_policy: {retry_on: '', num_retries: 99999999999}}}]\n",
    );
}

/// The cluster's retry circuit breaker is the policy's budget when no
/// `retry_budget` overrides it: written (`max_retries`, the DEFAULT
/// priority's first threshold), or Envoy's 3 when not written; a written
/// one is also offered to routes in other files.
#[test]
fn the_retry_circuit_breaker_is_a_concurrency_budget() {
    let with = |cb: &str| {
        format!(
            "static_resources:\n  listeners:\n  - name: l\n    filter_chains:\n    - filters:\n      - name: envoy.filters.network.http_connection_manager\n        typed_config:\n          route_config:\n            virtual_hosts:\n            - name: vh\n              domains: [\"*\"]\n              routes:\n              - match: {{prefix: \"/\"}}\n                route:\n                  cluster: c\n                  retry_policy: {{retry_on: 5xx, num_retries: 2}}\n  clusters:\n  - name: c\n    connect_timeout: 1s\n{cb}"
        )
    };
    let budget = |f: &Facts| f.policies[0].budget.clone().unwrap();
    let f = facts(&with(""));
    assert_eq!(budget(&f).value, Budget::Concurrency { max: 3 });
    assert!(budget(&f).is_default());
    assert!(f.protections.is_empty());
    let f = facts(&with(
        "    circuit_breakers:\n      thresholds:\n      - priority: HIGH\n        max_retries: 1\n      - max_retries: 50\n      - max_retries: 7\n",
    ));
    assert_eq!(budget(&f).value, Budget::Concurrency { max: 50 });
    assert!(budget(&f).is_written());
    assert_eq!(f.protections.len(), 1);
    assert_eq!(f.protections[0].host, "c");
    assert_eq!(f.protections[0].max_retries, Some(50));
    let f = facts(&with(
        "    circuit_breakers:\n      thresholds:\n      - max_retries: 50\n        retry_budget: {budget_percent: {value: 10}}\n",
    ));
    assert!(matches!(budget(&f).value, Budget::Ratio { .. }));
    assert!(f.protections.is_empty());
    let f = facts(&with(
        "    circuit_breakers:\n      thresholds:\n      - max_retries: lots\n",
    ));
    assert_eq!(budget(&f).value, Budget::Concurrency { max: 3 });
    assert_eq!(codes(&f), ["RL902"]);
}

/// A remote fetch's core retry policy in proto-JSON camelCase: the JWKS
/// fetch is a GET (so RL103 leaves it alone), the token request a POST;
/// the default back-off is 1 s capped at 10 s, and a timeout over 10 s
/// makes the 10 s cap each try's timeout.
#[test]
fn remote_fetches_in_camel_case() {
    let f = run(
        Path::new("envoy.json"),
        r#"{"staticResources": {"listeners": [{"filterChains": [{"filters": [{"typedConfig": {"httpFilters": [
 {"typedConfig": {"providers": {"okta": {"remoteJwks": {"httpUri": {"cluster": "jwks", "timeout": "30s"}, "retryPolicy": {"numRetries": 2}}}}}},
 {"typedConfig": {"config": {"tokenEndpoint": {"cluster": "idp", "timeout": "3s"}, "retryPolicy": {}}}}
]}}]}]}]}}"#,
        Syntax::Json,
    );
    let by = |n: &str| {
        f.policies
            .iter()
            .find(|p| p.name.as_deref() == Some(n))
            .unwrap_or_else(|| {
                panic!(
                    "{n}: {:?}",
                    f.policies.iter().map(|p| &p.name).collect::<Vec<_>>()
                )
            })
    };
    let jwks = by("remoteJwks fetch");
    assert_eq!(jwks.methods.value, Methods::Set(vec!["GET".into()]));
    assert_eq!(jwks.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        jwks.per_try_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(10)))
    );
    let token = by("tokenEndpoint fetch");
    assert_eq!(token.methods.value, Methods::Set(vec!["POST".into()]));
    assert_eq!(token.attempts.value.count, AttemptCount::Finite(2));
    assert!(token.per_try_timeout.is_none());
    assert_eq!(
        token.overall_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(3)))
    );
}

/// A remote data source (Wasm code) is fetched again after any failure,
/// which no setting narrows: named as such, not as a missing predicate
/// (RetryOn::AllErrors would be RL102's), each try bounded by the URI's
/// timeout.
#[test]
fn a_remote_data_source_retries_any_failed_fetch() {
    let f = facts(
        "static_resources:\n  listeners:\n  - filter_chains:\n    - filters:\n      - typed_config:\n          http_filters:\n          - typed_config:\n              config:\n                vm_config:\n                  code:\n                    remote:\n                      http_uri: {uri: https://m/f.wasm, cluster: modules, timeout: 10s}\n                      sha256: abc\n                      retry_policy: {num_retries: 3}\n",
    );
    let p = &f.policies[0];
    assert_eq!(p.name.as_deref(), Some("remote fetch"));
    assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
    assert!(
        matches!(&p.retry_on.value, RetryOn::Listed { conditions } if conditions.len() == 1
            && conditions[0].value == Condition::Token("any failed fetch".into())),
        "{:?}",
        p.retry_on.value
    );
    assert_eq!(
        p.per_try_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(10)))
    );
    assert!(p.overall_timeout.is_none());
}
