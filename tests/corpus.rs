//! The regression corpus in `../shared/corpus` (real files at their original
//! paths, with INDEX.tsv as ground truth). Without it the tests are reported
//! as ignored, and fail under `CI=true` (tests/common/needs.rs).
//!
//! For each file an extractor covers, the findings must be exactly the ones
//! listed here: a missing one is a missed anti-pattern, an extra one a false
//! alarm. Each entry says why, from INDEX.tsv.

mod common;

use common::needs::Need;
use retrylint::model::*;
use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::Duration;

/// (file below corpus/, [(code, line)]) for every file a covered format reads.
const EXPECTED: &[(&str, &[(&str, usize)])] = &[
    // Malformed route: host/subset beside a null destination (L13-15); the
    // retries (attempts 3, perTryTimeout 2s, no route timeout) are still read
    // and the DestinationRule document after `---` too: its outlierDetection
    // uses the deprecated `consecutiveErrors` (L35, L48).
    (
        "nilesh93/training-istio/05-resilliency/all-together.yaml",
        &[
            ("RL901", 14),
            ("RL901", 15),
            ("RL304", 17),
            ("RL901", 35),
            ("RL901", 48),
        ],
    ),
    // Envoy v2 YAML: the route has no retry_policy (no retries); the
    // cluster's circuit_breakers.thresholds is a mapping instead of a list
    // (L36-39), a schema error Envoy rejects. The deprecated v2 `hosts` and
    // `config:` are not retry settings and are read as they are.
    (
        "christian-posta/envoy-microservices-patterns/circuit-breaker/conf/envoy.yaml",
        &[("RL902", 36)],
    ),
    // Envoy docs: a retry_policy with host predicates but no retry_on (L29):
    // nothing is retried unless a request carries x-envoy-retry-on, which is
    // said (RL902 at warning severity).
    (
        "envoyproxy/envoy/docs/root/_configs/retry/retry-combined-hosts-priorities.yaml",
        &[("RL902", 29)],
    ),
    // Proto-JSON RouteConfigurations: no perTryTimeout anywhere, so each try
    // may take the whole default 15s route timeout (RL302 at each
    // numRetries); numRetries 5 = 6 attempts (L55); `reset` replays requests
    // the upstream may have processed, on a route matching every method
    // (L60). The clusters are in another file: no RL601.
    (
        "envoyproxy/gateway/internal/xds/translator/testdata/out/xds-ir/retry.routes.yaml",
        &[
            ("RL302", 15),
            ("RL302", 38),
            ("RL206", 55),
            ("RL302", 55),
            ("RL103", 60),
        ],
    ),
    // ServiceProfile: GET /api/list and /api/vote are retryable (L12, L17),
    // budget 0.001 / 10 per s / 10s read. INDEX.tsv assumes the old 10s
    // default route timeout, but there is none since stable-2.9.0
    // (src/extract/linkerd.rs; linkerd/website#1733): nothing bounds the call
    // (RL304). The proxy keeps no per-request retry count, but the budget
    // limits the retries, so they are not unbounded (no RL205).
    (
        "BuoyantIO/emojivoto/training/service-profiles/web-service-profile-with-retry-budget.yml",
        // isRetryable routes with no timeout (none by default since
        // stable-2.9.0); the retryBudget (0.001) bounds the retries, so
        // they are not unbounded.
        &[("RL304", 12), ("RL304", 17)],
    ),
    // attempts: 0 on all three hops: no retries, nothing to report.
    (
        "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-no-retries.yml",
        &[],
    ),
    // attempts 3, perTryTimeout 2s, no route timeout: up to 4 x 2s.
    (
        "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-recommendation-v2_retry.yml",
        &[("RL304", 13)],
    ),
    // configs.default: waitDuration 100 (unitless = 100 ms), fixed and
    // unjittered, inherited by backendA and backendB: reported once.
    (
        "resilience4j/resilience4j-spring-boot2-demo/src/main/resources/application.yml",
        &[("RL203", 68)],
    ),
    // maxRetryAttempts everywhere (removed in 2.0.0; the project's pom,
    // not in the corpus, pins 1.7.0, so no scanned build file tells the
    // version: each RL901 says what 1.x and 2.x make of it, and the 6
    // attempts of L19 are not an RL206 of their own); fixed unjittered
    // delays; exponential without jitter (L16-20); no
    // retryExceptions (every Throwable retried) except predicateExample's
    // resultPredicate, and java.lang.Exception in throwingException (L44);
    // the randomised but constant 2s of intervalFunctionRandomExample.
    (
        "thombergs/code-examples/resilience4j/springboot-resilience4j/src/main/resources/application.yml",
        &[
            ("RL102", 6),
            ("RL102", 11),
            ("RL102", 16),
            ("RL102", 23),
            ("RL202", 27),
            ("RL102", 30),
            ("RL102", 44),
            ("RL102", 48),
            ("RL901", 7),
            ("RL203", 8),
            ("RL901", 12),
            ("RL203", 13),
            ("RL203", 17),
            ("RL901", 19),
            ("RL901", 25),
            ("RL901", 31),
            ("RL203", 32),
            ("RL901", 36),
            ("RL203", 38),
            ("RL901", 42),
            ("RL203", 45),
            ("RL901", 49),
            ("RL203", 50),
        ],
    ),
    // aws-sdk-go-v2's shared_config fixture: [default] (L1) and the empty
    // [profile retryunset] (L260) set no retry keys, so the SDK's default
    // applies (RL403, info; other profiles without retry keys behave the
    // same and are not repeated); retry_mode invalid (L271) and max_attempts
    // invalid (L274) make the SDKs refuse those profiles. retrywithstandard
    // (5 attempts) and retrywithadaptive (4) are within the limit.
    // Duplicate and case-variant sections are not findings.
    (
        "aws/aws-sdk-go-v2/config/testdata/shared_config",
        &[("RL403", 1), ("RL403", 260), ("RL902", 271), ("RL902", 274)],
    ),
    // Bound to HttpStandardResilienceOptions: `Backoff` (L4) binds to
    // nothing (did you mean BackoffType), so the delay stays exponential
    // from 2s; UseJitter false (L5) leaves it unjittered; the standard
    // handler retries timeouts and 5xx for every method, POST included,
    // unless DisableForUnsafeHttpMethods() is called in code (RL103,
    // warning, at the Retry block, L3).
    (
        "dotnet/docs/docs/core/resilience/snippets/http-resilience/appsettings.json",
        &[("RL103", 3), ("RL901", 4), ("RL203", 5)],
    ),
    // Every entry: 5 attempts (the limit), jittered back-off, a timeout.
    // Publish (L41-64) retries DEADLINE_EXCEEDED, INTERNAL and UNKNOWN on
    // a non-idempotent RPC (L42, its `name`). CreateSubscription names the
    // resource, so retrying it is safe.
    (
        "googleapis/googleapis/google/pubsub/v1/pubsub_grpc_service_config.json",
        // No retryThrottling: reported once for the whole service config.
        &[("RL601", 2), ("RL103", 42)],
    ),
    // Hedging SayHello (idempotent), 3 attempts, throttled; no timeout.
    (
        "grpc/grpc-java/examples/src/main/resources/io/grpc/examples/hedging/hedging_service_config.json",
        &[("RL304", 12)],
    ),
    // 5 attempts on UNAVAILABLE, 0.5s..30s x2; no method timeout, no
    // retryThrottling (INDEX.tsv).
    (
        "grpc/grpc-java/examples/src/main/resources/io/grpc/examples/retrying/retrying_service_config.json",
        &[("RL601", 2), ("RL304", 12)],
    ),
    // Resilience4j's own commons-configuration fixture in .properties.
    // configs.default: waitDuration PT10S (L66), fixed and unjittered,
    // inherited by backendA and backendB: reported once. backendB writes
    // no waitDuration, so CommonRetryConfigurationProperties keeps
    // default's fixed 10s interval and ignores its exponential settings
    // (L76-79); INDEX reads them as an exponential capped at 10s = flat
    // 10s, the same delays: the dead settings are reported (RL901).
    (
        "resilience4j/resilience4j/resilience4j-commons-configuration/src/test/resources/resilience.properties",
        &[("RL203", 66), ("RL901", 76)],
    ),
    // ingress-nginx, v1beta1, two documents. `ingress`: unquoted
    // `proxy-next-upstream: error timeout http_502` (L9) with no tries or
    // timeout annotation: the controller's default of 3 tries, no
    // next-upstream timeout, 5s connect + 60s read per try. `ingress-dev`
    // redirects every request (`temporal-redirect`, L30), so its retry
    // annotation (L28) is dead config.
    (
        "flackdl/cwwed/configs/ingress.yml",
        &[("RL403", 9), ("RL901", 28)],
    ),
    // nginx: `proxy_next_upstream ... non_idempotent` (L44) and tries 2
    // (L45) at http level, read 30s (L67), connect 60s by default, no
    // next-upstream timeout; both upstreams list one server by host name.
    // The anti-pattern is `non_idempotent`: POSTs to relay retried on
    // timeout/502/503 (RL103, reported once at the http-level directive);
    // the tries and timeouts themselves are bounded and not a finding.
    ("getsentry/self-hosted/nginx.conf", &[("RL103", 44)]),
    // backon: RetryLayer::default() stores ExponentialBuilder::default()
    // (L141): 1s x2 up to 60s, 3 retries, no jitter; every use retries only
    // `is_temporary()` errors (`.when`), so only the missing jitter counts.
    (
        "apache/opendal/core/layers/retry/src/lib.rs",
        &[("RL203", 141)],
    ),
    // reqwest-retry: two RetryTransientMiddleware layers (L658, L680),
    // jittered (Jitter::Bounded), 2s..30s, DEFAULT_RETRIES 3 => 4 attempts;
    // the layering is an in-file edge: 4 x 4 = 16 attempts per call, above
    // the amplification threshold, so RL401 (RL402 defers to it).
    (
        "astral-sh/uv/crates/uv-client/src/base_client.rs",
        &[("RL401", 1173)],
    ),
    // tower Policy: default() 3 retries, server_retry() 15 retries => 16
    // attempts (L109); 504 retried for any method without a key (RL103 at
    // GATEWAY_TIMEOUT, L117) and no per-try timeout on either policy
    // (RL302). tower's backoff is jittered.
    (
        "kube-rs/kube/kube-client/src/client/retry.rs",
        &[
            ("RL206", 109),
            ("RL302", 109),
            ("RL103", 117),
            ("RL302", 130),
        ],
    ),
    // utils::retry!(.., 4, 5000): `retries > $count` => 6 attempts, a fixed
    // unjittered 5 s sleep, every sqlx error retried (the macro is defined
    // in utils.rs).
    (
        "osintbuddy/osintbuddy/rs/src/db.rs",
        &[("RL102", 6), ("RL206", 15), ("RL203", 16)],
    ),
    // The macro's default arm retry!($f, 5, 100): 7 attempts, fixed 100 ms.
    (
        "osintbuddy/osintbuddy/rs/src/utils.rs",
        &[("RL102", 18), ("RL206", 18), ("RL203", 18)],
    ),
    // Spring Retry on interface methods: L12 all defaults (3 attempts,
    // fixed 1000 ms, any exception: RL102), L15 retryFor SQLException with the default back-off,
    // L18 maxAttempts 2 with @Backoff(delay = 100): all fixed, unjittered.
    // L21-22 read their attempts and delay from placeholders: unknown, so
    // nothing is claimed about them.
    (
        "eugenp/tutorials/spring-scheduling/src/main/java/com/baeldung/springretry/MyService.java",
        &[("RL102", 12), ("RL203", 12), ("RL203", 15), ("RL203", 18)],
    ),
    // Registry instance `backendB` (its settings live in application.yml).
    // Retry wraps the circuit breaker (L152, L159, L187, L196), but the
    // instance's exception list is not in this file, so RL104 cannot judge
    // it here; the TimeLimiter on the async path is per attempt.
    (
        "resilience4j/resilience4j-spring-boot2-demo/src/main/java/io/github/robwin/controller/BackendBController.java",
        &[],
    ),
    // RetryConfig.from(a registry config) + retryOnResult(status >= 500)
    // for any HTTP method and no idempotency key (RL103); the circuit
    // breaker wraps the retry (L77, L99), the right order. Attempts and
    // back-off come from the registry.
    (
        "signalapp/Signal-Server/service/src/main/java/org/whispersystems/textsecuregcm/http/FaultTolerantHttpClient.java",
        &[("RL103", 234)],
    ),
];

fn corpus_findings_match_the_ground_truth() {
    let shared = common::shared_dir();
    let corpus = shared.join("corpus");
    let (scan, findings) = common::run(&corpus, &[]);
    assert!(
        !scan.notices.iter().any(|n| n.internal),
        "internal errors: {:?}",
        scan.notices
    );
    let mut failures = Vec::new();
    for (file, expected) in EXPECTED {
        let want: BTreeSet<(String, usize)> =
            expected.iter().map(|(c, l)| (c.to_string(), *l)).collect();
        let got: BTreeSet<(String, usize)> = findings
            .iter()
            .filter(|f| {
                scan.file(f.file)
                    .display_path()
                    .ends_with(&format!("corpus/{file}"))
            })
            .map(|f| {
                let line = scan.file(f.file).line_col(f.span.start).line;
                (f.rule.code.to_string(), line)
            })
            .collect();
        for missing in want.difference(&got) {
            failures.push(format!("{file}: missed {missing:?}"));
        }
        for extra in got.difference(&want) {
            failures.push(format!("{file}: false alarm {extra:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{failures:#?}\n\n{}",
        common::concise(&scan, &findings)
    );
}

fn policies_of<'a>(scan: &'a retrylint::Scan, suffix: &str) -> Vec<&'a RetryPolicy> {
    scan.files
        .iter()
        .filter(|f| f.source.display_path().ends_with(suffix))
        .flat_map(|f| &f.facts.policies)
        .collect()
}

fn named<'a>(ps: &[&'a RetryPolicy], name: &str) -> &'a RetryPolicy {
    ps.iter()
        .find(|p| p.name.as_deref() == Some(name))
        .unwrap_or_else(|| {
            panic!(
                "no policy {name}: {:?}",
                ps.iter().map(|p| &p.name).collect::<Vec<_>>()
            )
        })
}

fn corpus_values_are_read_as_the_systems_read_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);

    let demo = policies_of(
        &scan,
        "resilience4j-spring-boot2-demo/src/main/resources/application.yml",
    );
    let a = named(&demo, "backendA");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        a.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(100)
        }
    );
    assert_eq!(a.delay.provenance, Provenance::Inherited);
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!("retryExceptions are listed")
    };
    assert_eq!(conditions.len(), 3);

    let th = policies_of(
        &scan,
        "springboot-resilience4j/src/main/resources/application.yml",
    );
    let exp = named(&th, "intervalFunctionExponentialExample");
    // 2.x ignores `maxRetryAttempts: 6` (no build file tells the version);
    // the 1.x reading is kept for a build that says 1.x.
    assert_eq!(exp.attempts.value.count, AttemptCount::Finite(3));
    let file = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("springboot-resilience4j/src/main/resources/application.yml")
        })
        .unwrap();
    let older: Vec<u64> = file
        .facts
        .versioned
        .iter()
        .flat_map(|v| &v.older)
        .filter_map(|c| match c {
            retrylint::model::versions::Change::Attempts { attempts, .. } => {
                attempts.value.count.finite()
            }
            _ => None,
        })
        .collect();
    assert!(older.contains(&6), "{older:?}");
    assert_eq!(
        exp.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(exp.jitter.value, Jitter::None);
    let rnd = named(&th, "intervalFunctionRandomExample");
    assert_eq!(rnd.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(named(&th, "basic").retry_on.value, RetryOn::AllErrors);

    let vs = policies_of(&scan, "virtual-service-recommendation-v2_retry.yml");
    assert_eq!(vs.len(), 1);
    assert_eq!(vs[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        vs[0].per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert!(vs[0].platform_backoff);
    let off = policies_of(&scan, "virtual-service-no-retries.yml");
    assert_eq!(off.len(), 3, "attempts: 0 is a policy of one attempt");
    assert!(off.iter().all(|p| !p.retries()));

    // Envoy Gateway's proto-JSON routes, read with their real numbers.
    let eg = policies_of(&scan, "xds-ir/retry.routes.yaml");
    let first = named(&eg, "first-route");
    assert_eq!(first.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        first.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(200),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(2))
        }
    );
    assert!(first.platform_backoff);
    let RetryOn::Listed { conditions } = &first.retry_on.value else {
        panic!("retryOn is listed")
    };
    assert!(conditions.iter().any(|c| c.value == Condition::status(500)));
    assert_eq!(
        first.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(15))
    );
    assert_eq!(first.budget_site, BudgetSite::Unseen);
    let second = named(&eg, "second-route-defaults");
    assert_eq!(second.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        second.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(25),
            multiplier: 2.0,
            cap: Some(Duration::from_millis(250))
        }
    );
    assert!(second.delay.is_default());
    let third = named(&eg, "third-route-only-triggers");
    assert_eq!(third.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(third.methods.value, Methods::All);

    // The Envoy docs example: a retry policy that retries nothing.
    let docs = policies_of(&scan, "retry-combined-hosts-priorities.yaml");
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].retry_on.value, RetryOn::Nothing);
    assert!(!docs[0].retries());

    // christian-posta: no retry policy; the cluster endpoint is the callee.
    let cp = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("circuit-breaker/conf/envoy.yaml")
        })
        .expect("read");
    assert!(cp.facts.policies.is_empty());
    assert_eq!(cp.facts.edges.len(), 1);
    assert_eq!(cp.facts.edges[0].callee, "172.17.0.4");

    // The ServiceProfile's budget and routes.
    let sp = policies_of(&scan, "web-service-profile-with-retry-budget.yml");
    assert_eq!(sp.len(), 2);
    for p in &sp {
        assert_eq!(
            p.budget.as_ref().unwrap().value,
            Budget::Ratio {
                ratio: 0.001,
                min_per_second: Some(10.0)
            }
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
        assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
        assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
    }

    // nilesh93: the DestinationRule's host is a service identity.
    let nl = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("05-resilliency/all-together.yaml")
        })
        .expect("read");
    assert!(
        nl.facts
            .services
            .iter()
            .any(|s| s.source == "DestinationRule host" && s.name == "nginx-test")
    );
    // getsentry/self-hosted nginx.conf: six proxy_pass locations, each
    // inheriting the http-level settings.
    let sentry = policies_of(&scan, "getsentry/self-hosted/nginx.conf");
    assert_eq!(sentry.len(), 6);
    for p in &sentry {
        assert_eq!(p.system, System::Nginx);
        // tries 2 is kept: `relay`/`web` may resolve to several addresses.
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
        assert!(p.attempts.is_written());
        assert_eq!(
            p.methods.value,
            retrylint::extract::nginx::non_idempotent_methods(),
            "non_idempotent"
        );
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!("proxy_next_upstream lists conditions")
        };
        let values: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
        assert_eq!(
            values,
            [
                &Condition::Transport("error".into()),
                &Condition::Transport("timeout".into()),
                &Condition::Transport("invalid_header".into()),
                &Condition::status(502),
                &Condition::status(503),
            ]
        );
        // connect 60s (default) + read 30s.
        assert_eq!(
            p.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(90))
        );
        // No proxy_next_upstream_timeout; bounded by tries x per try.
        assert!(p.overall_timeout.is_none());
        assert!(p.platform_backoff);
        assert_eq!(p.delay.value, Delay::None);
    }
    let store = named(&sentry, "location /api/store/");
    assert_eq!(store.scope.callee.as_ref().unwrap().value, "relay");
    let edges: Vec<&CallEdge> = scan
        .files
        .iter()
        .filter(|f| {
            f.source
                .display_path()
                .ends_with("getsentry/self-hosted/nginx.conf")
        })
        .flat_map(|f| &f.facts.edges)
        .collect();
    let callees: Vec<&str> = edges.iter().map(|e| e.callee.as_str()).collect();
    assert_eq!(callees, ["relay", "relay", "relay", "web", "web", "web"]);

    // flackdl/cwwed ingress.yml: controller defaults under the annotation.
    let cwwed = policies_of(&scan, "flackdl/cwwed/configs/ingress.yml");
    assert_eq!(cwwed.len(), 1, "ingress-dev only redirects");
    let ing = cwwed[0];
    assert_eq!(ing.system, System::IngressNginx);
    assert_eq!(ing.attempts.value.count, AttemptCount::Finite(3));
    assert!(ing.attempts.is_default());
    assert!(ing.overall_timeout.is_none(), "timeout 0: no limit");
    assert_eq!(
        ing.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(65))
    );
    assert_eq!(ing.methods.value, Methods::IdempotentOnly);
    let RetryOn::Listed { conditions } = &ing.retry_on.value else {
        panic!("the annotation lists conditions")
    };
    assert_eq!(conditions.len(), 3);
    assert_eq!(conditions[2].value, Condition::status(502));
    assert_eq!(ing.scope.callee.as_ref().unwrap().value, "cwwed-alpha");
}

fn the_corpus_scan_completes_without_internal_errors() {
    let shared = common::shared_dir();
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(shared.join("corpus"))
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
}

fn corpus_sdk_configs_are_read_as_the_sdks_read_them() {
    let shared = common::shared_dir();
    let corpus = shared.join("corpus");
    let (scan, findings) = common::run(&corpus, &[]);

    // AWS: max_attempts counts total attempts; modes and their budgets.
    let aws = policies_of(&scan, "aws-sdk-go-v2/config/testdata/shared_config");
    let std = named(&aws, "profile retrywithstandard");
    assert_eq!(std.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(std.budget.as_ref().unwrap().value, Budget::Quota);
    let adaptive = named(&aws, "profile retrywithadaptive");
    assert_eq!(adaptive.attempts.value.count, AttemptCount::Finite(4));
    let unset = named(&aws, "profile retryunset");
    assert_eq!(unset.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(unset.attempts.provenance, Provenance::Default);
    assert!(
        aws.iter()
            .all(|p| p.name.as_deref() != Some("profile retrywithinvalidmode"))
    );
    assert_eq!(
        aws.len(),
        4,
        "{:?}",
        aws.iter().map(|p| &p.name).collect::<Vec<_>>()
    );
    // No finding anywhere prints a credential from the file.
    let text =
        std::fs::read_to_string(corpus.join("aws/aws-sdk-go-v2/config/testdata/shared_config"))
            .unwrap();
    let secrets: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| {
            let k = k.trim().to_ascii_lowercase();
            k.starts_with("aws_") && (k.contains("key") || k.contains("token"))
        })
        .map(|(_, v)| v.trim())
        .filter(|v| v.len() > 3)
        // `secret` is also part of the key names, which may be shown.
        .filter(|v| !"aws_secret_access_key aws_session_token".contains(&v.to_ascii_lowercase()))
        .collect();
    assert!(secrets.len() > 10);
    for f in &findings {
        for s in &secrets {
            assert!(
                !f.message.contains(s) && !f.help.contains(s),
                "a finding prints a credential: {}",
                f.message
            );
        }
    }
    // Nor does a rendered snippet, or the text kept for rendering.
    let pretty = common::pretty(&scan, &findings);
    let kept = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with("testdata/shared_config"))
        .map(|f| f.source.text.clone())
        .unwrap();
    for s in &secrets {
        assert!(!pretty.contains(s), "a snippet shows a credential: {s}");
        assert!(!kept.contains(s), "the kept text holds a credential: {s}");
    }

    // gRPC: total attempts, A6 back-off with 0.8-1.2 jitter, throttling.
    let retrying = policies_of(&scan, "retrying/retrying_service_config.json");
    let p = named(&retrying, "helloworld.Greeter/SayHello");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(500),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(30))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.2 });
    assert!(p.budget.is_none());
    let hedging = policies_of(&scan, "hedging/hedging_service_config.json");
    let h = named(&hedging, "helloworld.Greeter/SayHello");
    assert_eq!(h.kind, PolicyKind::Hedge);
    assert_eq!(h.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        h.budget.as_ref().unwrap().value,
        Budget::TokenBucket {
            max_tokens: 10.0,
            token_ratio: 0.1
        }
    );
    let pubsub = policies_of(&scan, "pubsub/v1/pubsub_grpc_service_config.json");
    assert!(
        pubsub
            .iter()
            .all(|p| p.attempts.value.count == AttemptCount::Finite(5))
    );
    let publish = named(&pubsub, "google.pubsub.v1.Publisher/Publish");
    assert_eq!(
        publish.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(60))
    );
    let RetryOn::Listed { conditions } = &publish.retry_on.value else {
        panic!("codes are listed")
    };
    assert_eq!(conditions.len(), 7);
    let streaming = named(&pubsub, "google.pubsub.v1.Subscriber/StreamingPull");
    assert_eq!(
        streaming.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(1800))
    );

    // .NET: MaxRetryAttempts counts retries; the misspelled `Backoff` does
    // not bind, so BackoffType stays Exponential; the standard timeouts.
    let dotnet = policies_of(&scan, "http-resilience/appsettings.json");
    let d = named(&dotnet, "RetryOptions");
    assert_eq!(d.system, System::DotnetStandard);
    assert_eq!(d.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        d.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(d.jitter.value, Jitter::None);
    assert_eq!(
        d.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    assert_eq!(
        d.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(d.methods.value, Methods::All);
}

fn corpus_properties_are_read_as_java_reads_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
    let suffix = "resilience4j-commons-configuration/src/test/resources/resilience.properties";
    let ps = policies_of(&scan, suffix);
    assert_eq!(ps.len(), 3, "configs.default, backendA, backendB");

    let b = named(&ps, "backendB");
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(5));
    // Flat 10s: default's interval (PT10S); backendB's exponential x2
    // capped at PT10S would give the same delays.
    assert_eq!(
        b.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(10)
        }
    );
    for k in 1..5 {
        assert_eq!(b.delay.value.nominal(k), Some(Duration::from_secs(10)));
    }
    assert_eq!(b.jitter.value, Jitter::None);
    let RetryOn::Listed { conditions } = &b.retry_on.value else {
        panic!("backendB lists exceptions and predicates")
    };
    assert!(conditions.iter().any(|c| c.value == Condition::Predicate));
    assert!(
        conditions
            .iter()
            .any(|c| c.value == Condition::Exception("java.io.IOException".into()))
    );

    // backendA: baseConfig=default, everything inherited.
    let a = named(&ps, "backendA");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(a.attempts.provenance, Provenance::Inherited);
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!("backendA inherits retryExceptions")
    };
    assert_eq!(conditions.len(), 2);

    // TimeLimiter L110-117: default PT10S, backendA PT5S, backendB PT15S.
    let file = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with(suffix))
        .unwrap();
    let limits: Vec<(String, Timeout)> = file
        .facts
        .timeouts
        .iter()
        .map(|t| (t.name.clone().unwrap(), t.timeout.value))
        .collect();
    assert_eq!(
        limits,
        [
            (
                "configs.default".into(),
                Timeout::after(Duration::from_secs(10))
            ),
            ("backendA".into(), Timeout::after(Duration::from_secs(5))),
            ("backendB".into(), Timeout::after(Duration::from_secs(15))),
        ]
    );

    // The mixed-case ISO-8601 values of the circuit breakers (L43 `PT10s`,
    // L57 `PT5s`) parse as Java's Duration.parse reads them.
    let props = retrylint::extract::properties::parse(&file.source.text, false);
    let value = |key: &str| {
        props.documents[0]
            .iter()
            .find(|p| p.key() == key)
            .map(|p| {
                (
                    p.value.clone(),
                    file.source.line_col(p.value_span.start).line,
                )
            })
            .unwrap()
    };
    for (key, line, secs) in [
        (
            "resilience4j.circuitbreaker.configs.shared.waitDurationInOpenState",
            43,
            10,
        ),
        (
            "resilience4j.circuitbreaker.instances.backendB.waitDurationInOpenState",
            57,
            5,
        ),
    ] {
        let (v, l) = value(key);
        assert_eq!(l, line);
        assert_eq!(
            retrylint::duration::parse_spring(&v, Duration::from_millis(1)).unwrap(),
            Duration::from_secs(secs)
        );
    }
    let (list, _) = value("resilience4j.retry.configs.default.retryExceptions");
    assert_eq!(
        list,
        "java.util.concurrent.TimeoutException, java.io.IOException"
    );
}

fn corpus_rust_sources_are_read_as_the_crates_read_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
    // Rust: backon's default builder stored in a struct field.
    let od = policies_of(&scan, "opendal/core/layers/retry/src/lib.rs");
    assert_eq!(od.len(), 1);
    assert_eq!(od[0].system, System::RustCrate("backon".into()));
    assert_eq!(od[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(od[0].jitter.value, Jitter::None);
    assert!(od[0].jitter.is_default());
    assert_eq!(
        od[0].delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(60))
        }
    );
    assert!(matches!(od[0].retry_on.value, RetryOn::Listed { .. }));

    // uv: two jittered middlewares, 4 attempts each, on one edge.
    let uv_file = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("uv-client/src/base_client.rs")
        })
        .unwrap();
    let mw: Vec<&RetryPolicy> = uv_file
        .facts
        .policies
        .iter()
        .filter(|p| p.system == System::RustCrate("reqwest-retry".into()))
        .collect();
    assert_eq!(mw.len(), 2);
    for p in &mw {
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(p.jitter.value, Jitter::Full);
        assert_eq!(p.methods.value, Methods::All);
    }
    let layered: Vec<&CallEdge> = uv_file
        .facts
        .edges
        .iter()
        .filter(|e| e.policies.len() == 2)
        .collect();
    assert_eq!(layered.len(), 1);

    // kube: tower Policy, 429/503/504 for every method, no per-try timeout.
    let kube = policies_of(&scan, "kube-client/src/client/retry.rs");
    assert_eq!(kube.len(), 2);
    let counts: Vec<AttemptCount> = kube.iter().map(|p| p.attempts.value.count).collect();
    assert!(counts.contains(&AttemptCount::Finite(4)));
    assert!(counts.contains(&AttemptCount::Finite(16)));
    for p in &kube {
        assert_eq!(p.methods.value, Methods::All);
        assert_ne!(p.jitter.value, Jitter::None);
        assert_eq!(
            p.per_try_timeout.as_ref().map(|t| t.value),
            Some(Timeout::Disabled)
        );
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!("statuses are listed")
        };
        let codes: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
        assert_eq!(
            codes,
            [
                &Condition::status(429),
                &Condition::status(503),
                &Condition::status(504)
            ]
        );
    }

    // osintbuddy: the macro's semantics at its call site in another file.
    let db = policies_of(&scan, "osintbuddy/rs/src/db.rs");
    assert_eq!(db.len(), 1);
    assert_eq!(db[0].attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        db[0].delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(5)
        }
    );
    assert_eq!(db[0].retry_on.value, RetryOn::AllErrors);
    let utils = policies_of(&scan, "osintbuddy/rs/src/utils.rs");
    assert_eq!(utils.len(), 1);
    assert_eq!(utils[0].attempts.value.count, AttemptCount::Finite(7));
}

fn corpus_java_values_are_read_as_the_systems_read_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
    let line = |suffix: &str, span: retrylint::source::Span| {
        scan.files
            .iter()
            .find(|f| f.source.display_path().ends_with(suffix))
            .map(|f| f.source.line_col(span.start).line)
            .unwrap()
    };

    let my = "springretry/MyService.java";
    let ps = policies_of(&scan, my);
    assert_eq!(ps.len(), 4);
    let p = named(&ps, "retryService");
    assert_eq!(p.system, System::SpringRetry);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    let p = named(&ps, "retryServiceWithCustomization");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(100)
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    let p = named(&ps, "retryServiceWithExternalConfiguration");
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.delay.value, Delay::Unknown);

    let b = "controller/BackendBController.java";
    let ps = policies_of(&scan, b);
    assert_eq!(ps.len(), 1);
    let p = named(&ps, "backendB");
    assert_eq!(line(b, p.span), 61);
    // What it retries and ignores comes from the `backendB` instance of
    // the demo's application.yml (its `default` config), found at link
    // time and placed at the registry call.
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{:?}", p.retry_on)
    };
    let names = |cs: &[Located<Condition>]| -> Vec<String> {
        cs.iter()
            .map(|c| match &c.value {
                Condition::Exception(n) => n.rsplit('.').next().unwrap().to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(
        names(conditions),
        [
            "HttpServerErrorException",
            "TimeoutException",
            "IOException"
        ]
    );
    assert_eq!(names(&p.ignores), ["BusinessException"]);
    assert!(conditions.iter().all(|c| c.span == p.span));
    assert_eq!(p.retry_on.provenance, Provenance::Inherited);
    assert_eq!(p.settings_from.len(), 1);
    assert!(
        p.settings_from[0]
            .ends_with("resilience4j-spring-boot2-demo/src/main/resources/application.yml:78"),
        "{:?}",
        p.settings_from
    );
    let wraps: Vec<usize> = p.wraps_breaker.iter().map(|s| line(b, *s)).collect();
    assert_eq!(wraps, [152, 159, 187, 196]);
    assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Unknown);

    let s = "http/FaultTolerantHttpClient.java";
    let ps = policies_of(&scan, s);
    assert_eq!(ps.len(), 1);
    let p = ps[0];
    assert_eq!(p.system, System::Resilience4j);
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.methods.value, Methods::All);
    assert!(p.wraps_breaker.is_empty(), "the breaker is the outer layer");
    assert!(p.idempotency.is_empty());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("retryOnResult is read: {:?}", p.retry_on)
    };
    assert_eq!(
        conditions[0].value,
        Condition::Status { from: 500, to: 599 }
    );
    assert_eq!(line(s, conditions[0].span), 234);
    assert_eq!(line(s, p.retry_on.span), 234);
}

fn main() -> ExitCode {
    let trials = vec![
        trial!(&[Need::Shared], corpus_findings_match_the_ground_truth),
        trial!(
            &[Need::Shared],
            corpus_values_are_read_as_the_systems_read_them
        ),
        trial!(
            &[Need::Shared],
            the_corpus_scan_completes_without_internal_errors
        ),
        trial!(
            &[Need::Shared],
            corpus_sdk_configs_are_read_as_the_sdks_read_them
        ),
        trial!(
            &[Need::Shared],
            corpus_properties_are_read_as_java_reads_them
        ),
        trial!(
            &[Need::Shared],
            corpus_rust_sources_are_read_as_the_crates_read_them
        ),
        trial!(
            &[Need::Shared],
            corpus_java_values_are_read_as_the_systems_read_them
        ),
    ];
    common::needs::run(include_str!("corpus.rs"), trials)
}
