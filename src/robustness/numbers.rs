//! Every numeric setting of every format retrylint reads, as a valid file
//! with a hole for the value, and the extreme values of the types behind
//! them (issue 16). The property test (`tests/suite/robustness.rs`) writes each
//! extreme into each setting; the `numbers` fuzz target writes arbitrary
//! text into one. Both scan the file through the whole pipeline (extract,
//! link, every rule, the graph) and fail on time as well as on a panic:
//! no value may stall a scan.

use crate::systems;
use std::path::Path;
use std::time::{Duration, Instant};

/// One numeric setting: a file name, and a valid file of that format with
/// `{v}` where the value goes.
pub struct Setting {
    pub name: &'static str,
    pub path: &'static str,
    pub template: &'static str,
    /// A value the format accepts, for checking that the file is read.
    pub normal: &'static str,
}

/// The longest one scan of one setting may take in a harness. A backstop
/// far above what any value costs (a few milliseconds): libFuzzer's own
/// `-timeout` is coarser.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);

/// The types' extremes: 0, 1, -1, the limits of every integer type and one
/// past them, huge numbers and strings, non-finite floats.
pub fn extremes() -> Vec<String> {
    let mut v: Vec<String> = [
        "0",
        "1",
        "-1",
        "2",
        "0.5",
        "1.0000001",
        "-0",
        "127",
        "128",
        "255",
        "256",
        "32767",
        "32768",
        "65535",
        "65536",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "1e309",
        "-1e309",
        "1e-309",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "Infinity",
        "Integer.MAX_VALUE",
        "Long.MAX_VALUE",
        "u32::MAX",
        "usize::MAX",
        "u64::MAX",
        "0x7fffffff",
        "0s",
        "1ns",
        "1ms",
        "-1s",
        "9999999999999999s",
        "9999999999999999h",
        "9999999999999999d",
        "18446744073709551615ms",
        "1e309s",
        "NaNs",
        "0.000000001s",
        "2562047788015215h",
        "10675199.02:48:05.4775807",
        "-10675199.02:48:05.4775808",
        "99999999:59:59",
        "00:00:00.0000001",
        "P9999999999999999D",
        "PT-1S",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("9".repeat(10_000));
    v.push(format!("1{}s", "0".repeat(400)));
    v.push(format!("0.{}1", "0".repeat(400)));
    v.push("x".repeat(100_000));
    v
}

/// Every numeric setting of every format.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "envoy num_retries",
        path: "envoy/route.yaml",
        template: "name: r\nvirtual_hosts:\n- name: v\n  domains: [\"*\"]\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: pay\n      timeout: 5s\n      retry_policy:\n        retry_on: 5xx\n        num_retries: {v}\n        per_try_timeout: 1s\n        retry_back_off: {base_interval: 0.025s, max_interval: 0.25s}\n",
        normal: "3",
    },
    Setting {
        name: "envoy per_try_timeout",
        path: "envoy/route.yaml",
        template: "name: r\nvirtual_hosts:\n- name: v\n  domains: [\"*\"]\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: pay\n      timeout: 5s\n      retry_policy:\n        retry_on: 5xx\n        num_retries: 4294967295\n        per_try_timeout: {v}\n",
        normal: "1s",
    },
    Setting {
        name: "envoy base_interval",
        path: "envoy/route.yaml",
        template: "name: r\nvirtual_hosts:\n- name: v\n  domains: [\"*\"]\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: pay\n      retry_policy:\n        num_retries: 4294967295\n        per_try_timeout: 1s\n        retry_back_off: {base_interval: {v}}\n",
        normal: "0.025s",
    },
    Setting {
        name: "envoy max_interval",
        path: "envoy/route.yaml",
        template: "name: r\nvirtual_hosts:\n- name: v\n  domains: [\"*\"]\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: pay\n      retry_policy:\n        num_retries: 4294967295\n        per_try_timeout: 1s\n        retry_back_off: {base_interval: 0.001s, max_interval: {v}}\n",
        normal: "1s",
    },
    Setting {
        name: "istio attempts",
        path: "k8s/vs.yaml",
        template: "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  hosts: [r]\n  http:\n  - route:\n    - destination: {host: r}\n    timeout: 5s\n    retries:\n      attempts: {v}\n      perTryTimeout: 1s\n",
        normal: "3",
    },
    Setting {
        name: "istio perTryTimeout",
        path: "k8s/vs.yaml",
        template: "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  hosts: [r]\n  http:\n  - route:\n    - destination: {host: r}\n    timeout: 5s\n    retries:\n      attempts: 2147483647\n      perTryTimeout: {v}\n",
        normal: "1s",
    },
    Setting {
        name: "resilience4j yaml maxAttempts",
        path: "svc/src/main/resources/application.yml",
        template: "resilience4j.retry:\n  instances:\n    a:\n      maxAttempts: {v}\n      waitDuration: 1ms\n      enableExponentialBackoff: true\n      exponentialBackoffMultiplier: 2\n",
        normal: "3",
    },
    Setting {
        name: "resilience4j yaml waitDuration",
        path: "svc/src/main/resources/application.yml",
        template: "resilience4j.retry:\n  instances:\n    a:\n      maxAttempts: 2147483647\n      waitDuration: {v}\n      enableExponentialBackoff: true\n",
        normal: "1s",
    },
    Setting {
        name: "resilience4j yaml multiplier",
        path: "svc/src/main/resources/application.yml",
        template: "resilience4j.retry:\n  instances:\n    a:\n      maxAttempts: 2147483646\n      waitDuration: 1ms\n      enableExponentialBackoff: true\n      exponentialBackoffMultiplier: {v}\n      exponentialMaxWaitDuration: 9999999999999999s\n",
        normal: "2",
    },
    Setting {
        name: "resilience4j properties maxAttempts",
        path: "svc/src/main/resources/application.properties",
        template: "resilience4j.retry.instances.a.maxAttempts={v}\nresilience4j.retry.instances.a.waitDuration=1ms\nresilience4j.retry.instances.a.enableExponentialBackoff=true\n",
        normal: "3",
    },
    Setting {
        name: "resilience4j properties waitDuration",
        path: "svc/src/main/resources/application.properties",
        template: "resilience4j.retry.instances.a.maxAttempts=2147483646\nresilience4j.retry.instances.a.waitDuration={v}\n",
        normal: "1s",
    },
    Setting {
        name: "resilience4j properties multiplier",
        path: "svc/src/main/resources/application.properties",
        template: "resilience4j.retry.instances.a.maxAttempts=2147483646\nresilience4j.retry.instances.a.waitDuration=1ms\nresilience4j.retry.instances.a.enableExponentialBackoff=true\nresilience4j.retry.instances.a.exponentialBackoffMultiplier={v}\n",
        normal: "2",
    },
    Setting {
        name: "resilience4j java maxAttempts",
        path: "svc/src/main/java/A.java",
        template: "import io.github.resilience4j.retry.RetryConfig;\nimport io.github.resilience4j.core.IntervalFunction;\nclass A { RetryConfig c() { return RetryConfig.custom().maxAttempts({v}).intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(1), 2.0)).build(); } }\n",
        normal: "3",
    },
    Setting {
        name: "resilience4j java waitDuration",
        path: "svc/src/main/java/A.java",
        template: "import io.github.resilience4j.retry.RetryConfig;\nclass A { RetryConfig c() { return RetryConfig.custom().maxAttempts(Integer.MAX_VALUE - 1).waitDuration(Duration.ofMillis({v})).build(); } }\n",
        normal: "100",
    },
    Setting {
        name: "resilience4j java multiplier",
        path: "svc/src/main/java/A.java",
        template: "import io.github.resilience4j.retry.RetryConfig;\nimport io.github.resilience4j.core.IntervalFunction;\nclass A { RetryConfig c() { return RetryConfig.custom().maxAttempts(Integer.MAX_VALUE - 1).intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(1), {v})).build(); } }\n",
        normal: "2.0",
    },
    Setting {
        name: "spring retry maxAttempts",
        path: "svc/src/main/java/B.java",
        template: "import org.springframework.retry.annotation.Retryable;\nimport org.springframework.retry.annotation.Backoff;\ninterface B { @Retryable(maxAttempts = {v}, backoff = @Backoff(delay = 1, multiplier = 2)) int f(); }\n",
        normal: "3",
    },
    Setting {
        name: "spring retry delay",
        path: "svc/src/main/java/B.java",
        template: "import org.springframework.retry.annotation.Retryable;\nimport org.springframework.retry.annotation.Backoff;\ninterface B { @Retryable(maxAttempts = 2147483646, backoff = @Backoff(delay = {v}, multiplier = 2)) int f(); }\n",
        normal: "100",
    },
    Setting {
        name: "spring retry multiplier",
        path: "svc/src/main/java/B.java",
        template: "import org.springframework.retry.annotation.Retryable;\nimport org.springframework.retry.annotation.Backoff;\ninterface B { @Retryable(maxAttempts = 2147483646, backoff = @Backoff(delay = 1, multiplier = {v})) int f(); }\n",
        normal: "2",
    },
    Setting {
        name: "spring boot rabbit max-attempts",
        path: "svc/src/main/resources/application.properties",
        template: "spring.rabbitmq.listener.simple.retry.enabled=true\nspring.rabbitmq.listener.simple.retry.max-attempts={v}\nspring.rabbitmq.listener.simple.retry.initial-interval=1ms\nspring.rabbitmq.listener.simple.retry.multiplier=2\n",
        normal: "3",
    },
    Setting {
        name: "spring boot rabbit initial-interval",
        path: "svc/src/main/resources/application.properties",
        template: "spring.rabbitmq.listener.simple.retry.enabled=true\nspring.rabbitmq.listener.simple.retry.max-attempts=2147483646\nspring.rabbitmq.listener.simple.retry.initial-interval={v}\n",
        normal: "1s",
    },
    Setting {
        name: "spring cloud gateway retries",
        path: "gw/src/main/resources/application.yml",
        template: "spring:\n  cloud:\n    gateway:\n      routes:\n      - id: s\n        uri: lb://s\n        metadata: {response-timeout: 2000}\n        filters:\n        - name: Retry\n          args:\n            retries: {v}\n            timeout: 5s\n            backoff: {firstBackoff: 1ms, maxBackoff: 9999999999999999s, factor: 2}\n",
        normal: "3",
    },
    Setting {
        name: "spring cloud gateway firstBackoff",
        path: "gw/src/main/resources/application.yml",
        template: "spring:\n  cloud:\n    gateway:\n      routes:\n      - id: s\n        uri: lb://s\n        filters:\n        - name: Retry\n          args:\n            retries: 2147483646\n            backoff: {firstBackoff: {v}, factor: 2}\n",
        normal: "10ms",
    },
    Setting {
        name: "spring cloud gateway factor",
        path: "gw/src/main/resources/application.yml",
        template: "spring:\n  cloud:\n    gateway:\n      routes:\n      - id: s\n        uri: lb://s\n        filters:\n        - name: Retry\n          args:\n            retries: 2147483646\n            backoff: {firstBackoff: 1ms, factor: {v}}\n",
        normal: "2",
    },
    Setting {
        name: "linkerd retry limit",
        path: "k8s/route.yaml",
        template: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: b\n  annotations:\n    retry.linkerd.io/http: 5xx\n    retry.linkerd.io/limit: \"{v}\"\n    retry.linkerd.io/timeout: 1s\n    timeout.linkerd.io/request: 2s\nspec:\n  parentRefs: [{name: b, kind: Service, group: core, port: 80}]\n  rules:\n  - backendRefs: [{name: b, port: 80}]\n",
        normal: "3",
    },
    Setting {
        name: "linkerd retry timeout",
        path: "k8s/route.yaml",
        template: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: b\n  annotations:\n    retry.linkerd.io/http: 5xx\n    retry.linkerd.io/limit: \"4294967295\"\n    retry.linkerd.io/timeout: \"{v}\"\n    timeout.linkerd.io/request: 2s\nspec:\n  parentRefs: [{name: b, kind: Service, group: core, port: 80}]\n  rules:\n  - backendRefs: [{name: b, port: 80}]\n",
        normal: "1s",
    },
    Setting {
        name: "linkerd budget retryRatio",
        path: "k8s/profile.yaml",
        template: "apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata: {name: b.ns.svc.cluster.local}\nspec:\n  routes:\n  - name: GET /\n    condition: {method: GET, pathRegex: /}\n    isRetryable: true\n    timeout: 1s\n  retryBudget:\n    retryRatio: {v}\n    minRetriesPerSecond: {v}\n    ttl: {v}\n",
        normal: "0.2",
    },
    Setting {
        name: "grpc maxAttempts",
        path: "grpc/service_config.json",
        template: "{\"methodConfig\": [{\"name\": [{\"service\": \"s.S\"}], \"timeout\": \"2s\", \"retryPolicy\": {\"maxAttempts\": {v}, \"initialBackoff\": \"0.001s\", \"maxBackoff\": \"315576000000s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"], \"perAttemptRecvTimeout\": \"1s\"}}]}\n",
        normal: "3",
    },
    Setting {
        name: "grpc initialBackoff",
        path: "grpc/service_config.json",
        template: "{\"methodConfig\": [{\"name\": [{\"service\": \"s.S\"}], \"timeout\": \"2s\", \"retryPolicy\": {\"maxAttempts\": 2147483647, \"initialBackoff\": \"{v}\", \"maxBackoff\": \"315576000000s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}]}\n",
        normal: "0.1s",
    },
    Setting {
        name: "grpc backoffMultiplier",
        path: "grpc/service_config.json",
        template: "{\"methodConfig\": [{\"name\": [{\"service\": \"s.S\"}], \"timeout\": \"2s\", \"retryPolicy\": {\"maxAttempts\": 2147483647, \"initialBackoff\": \"0.001s\", \"maxBackoff\": \"315576000000s\", \"backoffMultiplier\": {v}, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}], \"retryThrottling\": {\"maxTokens\": {v}, \"tokenRatio\": {v}}}\n",
        normal: "2",
    },
    Setting {
        name: "aws max_attempts",
        path: ".aws/config",
        template: "[default]\nregion = eu-west-1\nretry_mode = standard\nmax_attempts = {v}\n",
        normal: "3",
    },
    Setting {
        name: "dotnet MaxRetryAttempts",
        path: "Svc/appsettings.json",
        template: "{\"C\": {\"Retry\": {\"MaxRetryAttempts\": {v}, \"Delay\": \"00:00:00.001\", \"BackoffType\": \"Exponential\", \"UseJitter\": false}, \"AttemptTimeout\": {\"Timeout\": \"00:00:01\"}, \"TotalRequestTimeout\": {\"Timeout\": \"00:00:30\"}}}\n",
        normal: "3",
    },
    Setting {
        name: "dotnet Linear MaxRetryAttempts",
        path: "Svc/appsettings.json",
        template: "{\"C\": {\"Retry\": {\"MaxRetryAttempts\": {v}, \"Delay\": \"00:00:00.001\", \"BackoffType\": \"Linear\", \"UseJitter\": false}, \"AttemptTimeout\": {\"Timeout\": \"00:00:01\"}, \"TotalRequestTimeout\": {\"Timeout\": \"00:00:30\"}}}\n",
        normal: "3",
    },
    Setting {
        name: "dotnet Delay",
        path: "Svc/appsettings.json",
        template: "{\"C\": {\"Retry\": {\"MaxRetryAttempts\": 2147483647, \"Delay\": \"{v}\", \"BackoffType\": \"Exponential\", \"UseJitter\": false}, \"AttemptTimeout\": {\"Timeout\": \"{v}\"}, \"TotalRequestTimeout\": {\"Timeout\": \"00:00:30\"}}}\n",
        normal: "00:00:01",
    },
    Setting {
        name: "nginx proxy_next_upstream_tries",
        path: "nginx/nginx.conf",
        template: "http {\n  proxy_read_timeout 30s;\n  proxy_next_upstream_tries {v};\n  proxy_next_upstream_timeout 60s;\n  upstream p { server a:80; server b:80; }\n  server { location / { proxy_pass http://p; } }\n}\n",
        normal: "3",
    },
    Setting {
        name: "nginx timeouts",
        path: "nginx/nginx.conf",
        template: "http {\n  proxy_connect_timeout {v};\n  proxy_read_timeout {v};\n  proxy_next_upstream_tries 4294967295;\n  proxy_next_upstream_timeout {v};\n  upstream p { server a:80; server b:80; }\n  server { location / { proxy_pass http://p; } }\n}\n",
        normal: "30s",
    },
    Setting {
        name: "ingress-nginx tries",
        path: "k8s/ingress.yaml",
        template: "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: c\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-next-upstream-tries: \"{v}\"\n    nginx.ingress.kubernetes.io/proxy-read-timeout: \"30\"\n    nginx.ingress.kubernetes.io/proxy-next-upstream-timeout: \"60\"\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: s.example.com\n    http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: c, port: {number: 80}}}}\n",
        normal: "3",
    },
    Setting {
        name: "ingress-nginx timeouts",
        path: "k8s/ingress.yaml",
        template: "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: c\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-next-upstream-tries: \"2147483647\"\n    nginx.ingress.kubernetes.io/proxy-read-timeout: \"{v}\"\n    nginx.ingress.kubernetes.io/proxy-next-upstream-timeout: \"{v}\"\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: s.example.com\n    http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: c, port: {number: 80}}}}\n",
        normal: "30",
    },
    Setting {
        name: "gateway api attempts",
        path: "k8s/route.yaml",
        template: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: s}\nspec:\n  parentRefs: [{name: g}]\n  rules:\n  - backendRefs: [{name: o, port: 80}]\n    timeouts: {request: 5s, backendRequest: 2s}\n    retry: {codes: [503], attempts: {v}, backoff: 1ms}\n",
        normal: "3",
    },
    Setting {
        name: "gateway api durations",
        path: "k8s/route.yaml",
        template: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: s}\nspec:\n  parentRefs: [{name: g}]\n  rules:\n  - backendRefs: [{name: o, port: 80}]\n    timeouts: {request: \"{v}\", backendRequest: \"{v}\"}\n    retry: {codes: [503], attempts: 2147483647, backoff: \"{v}\"}\n",
        normal: "1s",
    },
    Setting {
        name: "rust backon with_max_times",
        path: "svc/src/lib.rs",
        template: "async fn f(c: &C) -> R { (|| c.get()).retry(backon::ExponentialBuilder::default().with_min_delay(Duration::from_millis(1)).with_max_times({v})).await }\n",
        normal: "3",
    },
    Setting {
        name: "rust tokio-retry take",
        path: "svc/src/lib.rs",
        template: "async fn f() -> R { let s = tokio_retry::strategy::ExponentialBackoff::from_millis({v}).take({v}); tokio_retry::Retry::spawn(s, open).await }\n",
        normal: "3",
    },
    Setting {
        name: "rust reqwest-retry max retries",
        path: "svc/src/lib.rs",
        template: "fn c() -> M { let p = reqwest_retry::policies::ExponentialBackoff::builder().retry_bounds(Duration::from_millis(1), Duration::from_secs({v})).build_with_max_retries({v}); reqwest_middleware::ClientBuilder::new(reqwest::Client::new()).with(reqwest_retry::RetryTransientMiddleware::new_with_policy(p)).build() }\n",
        normal: "3",
    },
    Setting {
        name: "rust backoff max_elapsed_time",
        path: "svc/src/lib.rs",
        template: "fn f() -> R { let b = backoff::ExponentialBackoffBuilder::new().with_initial_interval(Duration::from_millis(1)).with_multiplier({v}).with_max_elapsed_time(Some(Duration::from_secs({v}))).build(); backoff::retry(b, op) }\n",
        normal: "2",
    },
    Setting {
        name: "rust loop",
        path: "svc/src/lib.rs",
        template: "async fn f(client: &reqwest::Client) -> R { let mut d = Duration::from_millis(1); for _ in 0..{v} { match client.get(URL).send().await { Ok(o) => return Ok(o), Err(_) => { tokio::time::sleep(d).await; d *= 2; } } } Err(E) }\n",
        normal: "3",
    },
    Setting {
        name: "java loop",
        path: "svc/src/main/java/L.java",
        template: "class L { byte[] f(Api api) throws Exception { for (int i = 0; i < {v}; i++) { try { return api.call(); } catch (java.io.IOException e) { Thread.sleep({v}); } } return null; } }\n",
        normal: "3",
    },
];

/// `setting`'s file with `value` in it.
pub fn file(setting: &Setting, value: &str) -> String {
    setting.template.replace("{v}", value)
}

/// What one scan of one setting found and cost.
pub struct Outcome {
    pub took: Duration,
    pub policies: usize,
    /// Internal errors (a panic or an overrun caught by a guard): a scan
    /// with one exits 2.
    pub internal: Vec<String>,
}

/// Scan `setting` with `value` through the whole pipeline, in memory:
/// extract (under the scan's own file guard), link, every rule, the graph.
pub fn scan(setting: &Setting, value: &str) -> Outcome {
    let text = file(setting, value);
    let path = Path::new(setting.path);
    let start = Instant::now();
    let mut scan = crate::Scan::default();
    let syntax = systems::classify(path, text.as_bytes());
    if let Some(syntax) = syntax {
        match crate::guard::run(crate::guard::FILE_BUDGET, || {
            systems::extract(path, &text, syntax)
        }) {
            Ok(facts) => {
                super::check_facts(&text, &facts);
                scan.files.push(crate::ScannedFile {
                    source: crate::source::SourceFile::new(setting.path, text),
                    facts,
                    syntax: Some(syntax),
                });
            }
            Err(stop) => scan.notices.push(crate::Notice {
                path: Some(setting.path.into()),
                message: stop.describe(),
                internal: true,
            }),
        }
    }
    let roots = [std::path::PathBuf::from("/nonexistent/retrylint-numbers")];
    let files = &mut scan.files;
    if let Err(stop) = crate::guard::run(crate::guard::STAGE_BUDGET, || {
        crate::link::all(files, &roots)
    }) {
        scan.notices
            .push(crate::stage_notice("linking the files", &stop));
    }
    let settings = crate::config::Settings::default();
    let crate::pipeline::Run { scan, report, .. } =
        crate::pipeline::Pipeline::new(&settings).after_scan(scan, |_| true);
    let _ = crate::render::concise(&scan, &report.findings);
    let _ = crate::render::json::render(&scan, &report.findings);
    let took = start.elapsed();
    Outcome {
        took,
        policies: scan.files.iter().map(|f| f.facts.policies.len()).sum(),
        internal: scan
            .notices
            .iter()
            .chain(&report.notices)
            .filter(|n| n.internal)
            .map(|n| n.message.clone())
            .collect(),
    }
}

/// The `numbers` fuzz target: the first byte picks a setting, the rest
/// (up to 4 KiB, one line) is its value. Fails on an internal error and on
/// a scan slower than [`TIME_LIMIT`], not only on a panic.
pub fn fuzz(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let setting = &SETTINGS[pick as usize % SETTINGS.len()];
    let value: String = String::from_utf8_lossy(&rest[..rest.len().min(4096)])
        .chars()
        .take_while(|c| *c != '\n' && *c != '\r')
        .collect();
    super::on_worker_stack(move || check(setting, &value));
}

/// Scan `setting` with `value` and panic on an internal error or on time.
pub fn check(setting: &Setting, value: &str) {
    let out = scan(setting, value);
    assert!(
        out.internal.is_empty(),
        "{} = {:?}: {:?}",
        setting.name,
        excerpt(value),
        out.internal
    );
    assert!(
        out.took < TIME_LIMIT,
        "{} = {:?}: the scan took {:?}",
        setting.name,
        excerpt(value),
        out.took
    );
}

fn excerpt(value: &str) -> String {
    if value.len() <= 60 {
        value.to_string()
    } else {
        let mut end = 60;
        while !value.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}... ({} bytes)", &value[..end], value.len())
    }
}
