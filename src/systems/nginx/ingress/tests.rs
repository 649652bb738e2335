use super::*;
use crate::extract::Syntax;
use crate::systems::extract as extract_file;
use std::path::Path;

fn facts(text: &str) -> Facts {
    extract_file(Path::new("ingress.yaml"), text, Syntax::Yaml)
}

const FLACKDL: &str = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: ingress\n  annotations:\n    kubernetes.io/ingress.class: \"nginx\"\n    nginx.ingress.kubernetes.io/proxy-next-upstream: error timeout http_502\nspec:\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - path: /\n        backend:\n          serviceName: web\n          servicePort: 80\n";

#[test]
fn unquoted_values_with_spaces_and_defaults() {
    let f = facts(FLACKDL);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.system, System::IngressNginx);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert!(p.attempts.is_default());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("listed")
    };
    let spans: Vec<&str> = conditions
        .iter()
        .map(|c| &FLACKDL[c.span.start..c.span.end])
        .collect();
    assert_eq!(spans, ["error", "timeout", "http_502"]);
    assert_eq!(p.methods.value, Methods::IdempotentOnly);
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(65))
    );
    assert!(p.overall_timeout.is_none());
    assert_eq!(f.edges[0].callee, "web");
    assert_eq!(f.edges[0].caller.as_deref(), Some(CONTROLLER));
    assert_eq!(f.edges[0].policies, [0]);
}

#[test]
fn v1_backends_tries_zero_and_bad_values() {
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: api\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-next-upstream-tries: \"0\"\n    nginx.ingress.kubernetes.io/proxy-read-timeout: \"30s\"\n    nginx.ingress.kubernetes.io/proxy-connect-timeout: 10\n    nginx.ingress.kubernetes.io/proxy-next-upstream: \"error http_5xx\"\n    nginx.ingress.kubernetes.io/retry-non-idempotent: \"true\"\nspec:\n  ingressClassName: nginx\n  defaultBackend:\n    service:\n      name: api\n      port:\n        number: 80\n";
    let f = facts(text);
    let msgs: Vec<&str> = f.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(f.diagnostics.len(), 4, "{msgs:#?}");
    assert!(f.diagnostics.iter().any(|d| d.code == "RL901"));
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
    // The bad `proxy-next-upstream` is dropped: the default applies.
    assert!(p.retry_on.is_default());
    assert_eq!(p.methods.value, Methods::IdempotentOnly);
    assert_eq!(f.edges[0].callee, "api");
}

#[test]
fn other_controllers_are_not_claimed() {
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: a\n  annotations:\n    kubernetes.io/ingress.class: traefik\nspec: {}\n";
    assert!(facts(text).policies.is_empty());
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: a\n  annotations:\n    nginx.org/proxy-read-timeout: 10s\nspec:\n  ingressClassName: nginx\n";
    assert!(facts(text).policies.is_empty());
}

#[test]
fn configmap_in_the_same_file_is_inherited() {
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingress-nginx-controller\ndata:\n  retry-non-idempotent: \"true\"\n  proxy-next-upstream-tries: \"5\"\n  proxy-next-upstream-trys: \"5\"\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\nspec:\n  ingressClassName: nginx\n";
    let f = facts(text);
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 2);
    let cm = &f.policies[0];
    assert_eq!(
        cm.methods.value,
        crate::systems::nginx::extract::non_idempotent_methods()
    );
    assert!(cm.attempts.is_written());
    let ing = &f.policies[1];
    assert_eq!(ing.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(ing.attempts.provenance, Provenance::Inherited);
    assert_eq!(
        ing.methods.value,
        crate::systems::nginx::extract::non_idempotent_methods()
    );
}

#[test]
fn a_configmap_from_another_file_applies_at_link_time() {
    let cm = facts(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingress-nginx-controller\ndata:\n  retry-non-idempotent: \"true\"\n  proxy-next-upstream-timeout: \"20\"\n",
    );
    let ing = facts(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-next-upstream-tries: \"2\"\nspec:\n  ingressClassName: nginx\n",
    );
    let mut p = ing.policies[0].clone();
    apply_configmap(
        &mut p,
        &cm.policies[0],
        &SettingPlace {
            path: "cm.yaml".into(),
            line: 6,
        },
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert!(p.attempts.is_written(), "the annotation wins");
    assert_eq!(
        p.methods.value,
        crate::systems::nginx::extract::non_idempotent_methods()
    );
    assert_eq!(p.methods.provenance, Provenance::Inherited);
    assert_eq!(p.methods.span, p.span, "placed at the Ingress");
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(20))
    );
    assert!(p.retry_on.is_default(), "the ConfigMap does not set it");
    assert_eq!(p.settings_from, ["cm.yaml:6"]);
    assert!(p.describe().contains("with settings from `cm.yaml` line 6"));
}

#[test]
fn configuration_snippets_add_values_and_cannot_repeat_tries() {
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: a\n  annotations:\n    nginx.ingress.kubernetes.io/configuration-snippet: |\n      proxy_next_upstream non_idempotent http_502;\n      proxy_next_upstream_tries 5;\n      more_set_headers \"X: y\";\nspec:\n  ingressClassName: nginx\n";
    let f = facts(text);
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    assert!(
        f.diagnostics[0]
            .message
            .contains("proxy_next_upstream_tries")
    );
    let p = &f.policies[0];
    assert_eq!(
        p.methods.value,
        crate::systems::nginx::extract::non_idempotent_methods()
    );
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    // error timeout (controller default) + http_502 (snippet).
    assert_eq!(conditions.len(), 3);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
}

#[test]
fn redirect_makes_retry_annotations_dead() {
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: a\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-next-upstream: error timeout\n    nginx.ingress.kubernetes.io/temporal-redirect: https://b\nspec: {}\n";
    let f = facts(text);
    assert!(f.policies.is_empty());
    assert_eq!(f.diagnostics.len(), 1);
    assert!(f.diagnostics[0].message.contains("no effect"));
}
