//! The ground truth: every corpus file a covered format reads and the
//! findings it must give, each entry saying why (from INDEX.tsv).

/// (file below corpus/, [(code, line)]) for every file a covered format reads.
pub(super) const EXPECTED: &[(&str, &[(&str, usize)])] = &[
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
    // (L60). The clusters are in another file: no RL601. L40: `503` retried
    // on a route matching every method: a sidecar or gateway answers 503
    // itself after an upstream reset or timeout, so a POST may be replayed
    // (issue 28; RL103 at warning). The overload signal is retried, but
    // the cluster (and its budget or `max_retries`) is not in this file: no
    // RL603.
    (
        "envoyproxy/gateway/internal/xds/translator/testdata/out/xds-ir/retry.routes.yaml",
        &[
            ("RL302", 15),
            ("RL302", 38),
            ("RL103", 40),
            ("RL206", 55),
            ("RL302", 55),
            ("RL103", 60),
        ],
    ),
    // ServiceProfile: GET /api/list and /api/vote are retryable (L12, L17),
    // budget 0.001 / 10 per s / 10s read. INDEX.tsv assumes the old 10s
    // default route timeout, but there is none since stable-2.9.0
    // (src/systems/linkerd/extract.rs; linkerd/website#1733): nothing bounds the call
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
    // Duplicate and case-variant sections are not findings. The two RL403
    // are one finding (one default, one file: issue 17, item 6) at L1 with
    // L260 as its related location.
    (
        "aws/aws-sdk-go-v2/config/testdata/shared_config",
        &[("RL403", 1), ("RL902", 271), ("RL902", 274)],
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
    // resource, so retrying it is safe. Two entries (L58, L116) retry
    // RESOURCE_EXHAUSTED, the server's overload and quota answer, with no
    // retryThrottling: up to 4 more tries each while the quota is spent
    // (RL603, issue 28).
    (
        "googleapis/googleapis/google/pubsub/v1/pubsub_grpc_service_config.json",
        // No retryThrottling: reported once for the whole service config.
        &[("RL601", 2), ("RL103", 42), ("RL603", 58), ("RL603", 116)],
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
    // (RL302). tower's backoff is jittered. server_retry() has no deadline:
    // 15 retries doubling from 5 ms wait up to 164 s in all (RL304, L109,
    // issue 28). 429 and 503 (API Priority and Fairness' rejections) are
    // retried with no budget (RL603, L117).
    (
        "kube-rs/kube/kube-client/src/client/retry.rs",
        &[
            ("RL206", 109),
            ("RL302", 109),
            ("RL304", 109),
            ("RL103", 117),
            ("RL603", 117),
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
