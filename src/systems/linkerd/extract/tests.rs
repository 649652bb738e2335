use super::*;
use crate::extract::Syntax;
use crate::systems::extract as run;
use std::path::Path;

fn facts(text: &str) -> Facts {
    run(Path::new("linkerd.yaml"), text, Syntax::Yaml)
}

const PROFILE: &str = "apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata:\n  name: web-svc.emojivoto.svc.cluster.local\nspec:\n  routes:\n  - condition:\n      method: GET\n      pathRegex: /api/list\n    name: GET /api/list\n    isRetryable: true\n    timeout: 300ms\n  - condition:\n      method: POST\n      pathRegex: /api/vote\n    name: POST /api/vote\n    isRetryable: true\n    responseClasses:\n    - condition:\n        status: {min: 400, max: 404}\n      isFailure: true\n    - condition:\n        status: {min: 500}\n      isFailure: false\n  - name: plain\n    condition: {pathRegex: /x}\n  retryBudget:\n    retryRatio: 0.6\n    minRetriesPerSecond: 10\n    ttl: 10s\n";

#[test]
fn service_profile_routes_and_budget() {
    let f = facts(PROFILE);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 2);
    let a = &f.policies[0];
    assert_eq!(a.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(a.methods.value, Methods::Set(vec!["GET".into()]));
    assert_eq!(
        a.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(300))
    );
    assert_eq!(
        a.budget.as_ref().unwrap().value,
        Budget::Ratio {
            ratio: 0.6,
            min_per_second: Some(10.0)
        }
    );
    let RetryOn::Listed { conditions } = &f.policies[1].retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions
            .iter()
            .map(|c| c.value.clone())
            .collect::<Vec<_>>(),
        vec![Condition::Status { from: 400, to: 404 }]
    );
    assert_eq!(f.services[0].name, "web-svc");
    // No timeout: none by default.
    assert_eq!(f.timeouts.len(), 3);
    assert_eq!(f.timeouts[1].timeout.value, Timeout::Disabled);
}

#[test]
fn default_budget_and_5xx() {
    let f = facts(
        "apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata: {name: books}\nspec:\n  routes:\n  - name: r\n    condition: {method: GET}\n    isRetryable: true\n",
    );
    let p = &f.policies[0];
    assert!(p.budget.as_ref().unwrap().is_default());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions[0].value,
        Condition::Status { from: 500, to: 599 }
    );
}

const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: HTTPRoute\nmetadata:\n  name: schlep\n  annotations:\n    retry.linkerd.io/http: 5xx,429\n    retry.linkerd.io/limit: \"2\"\n    retry.linkerd.io/timeout: 300ms\n    # retry.linkerd.io/limit: \"9\"\n    timeout.linkerd.io/request: 2s\nspec:\n  parentRefs:\n  - {name: schlep, kind: Service, group: core, port: 80}\n  rules:\n  - matches:\n    - method: POST\n    backendRefs:\n    - {name: schlep, port: 80}\n";

#[test]
fn route_annotations_make_a_policy_per_rule() {
    let f = facts(ROUTE);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = f
        .policies
        .iter()
        .find(|p| p.system == System::Linkerd)
        .unwrap();
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(300))
    );
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert_eq!(p.methods.value, Methods::Set(vec!["POST".into()]));
    assert_eq!(p.budget_site, BudgetSite::NotOffered);
    assert!(p.platform_backoff);
    assert_eq!(p.scope.callee.as_ref().unwrap().value, "schlep");
}

#[test]
fn annotations_on_a_service_and_defaults() {
    let f = facts(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: books\n  annotations:\n    retry.linkerd.io/http: gateway-error\n    retry.linkerd.io/limt: \"3\"\n",
    );
    let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["RL901"]);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
}

#[test]
fn annotations_are_ignored_beside_a_service_profile() {
    let text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: books\n  annotations:\n    retry.linkerd.io/http: 5xx\n---\napiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata: {name: books.default.svc.cluster.local}\nspec:\n  routes: []\n";
    let f = facts(text);
    assert!(!f.policies[0].retries());
    assert_eq!(f.diagnostics.len(), 1);
    assert!(f.diagnostics[0].message.contains("ServiceProfile"));
}

#[test]
fn bad_annotation_values() {
    let f = facts(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: books\n  annotations:\n    retry.linkerd.io/http: 5xx,6xx\n    retry.linkerd.io/timeout: \"5\"\n",
    );
    let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["RL902", "RL902"], "{:?}", f.diagnostics);
}
