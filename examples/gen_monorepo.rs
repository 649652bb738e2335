//! Synthetic monorepo generator for the benchmark (`scripts/bench.sh`) and
//! the CI smoke test (`tests/suite/monorepo_smoke.rs`).
//!
//! ```text
//! cargo run --release --example gen_monorepo -- --files 10000 --seed 1 target/bench/tree-10000
//! ```
//!
//! It is an example rather than a binary of the crate so that it adds no
//! dependency and no build time to `retrylint` itself (it uses only `std`),
//! and so that the smoke test can include it with `#[path]`.
//!
//! Given a file count it writes `files / FILES_PER_SERVICE` services, each
//! shaped like a real one: a handful of supported configuration files of
//! every format (Resilience4j YAML and properties, Kubernetes and Istio
//! manifests, Envoy, nginx, a gRPC service config, appsettings.json, an AWS
//! config), Java and Rust sources of realistic size with and without retry
//! code, many files no extractor wants (docs, other source, lock files,
//! images), and a `.gitignore`d `build/` folder. Service `i` calls service
//! `i + 1` (and every tenth calls back), so the call graph has long paths
//! and cycles. The output is a pure function of the seed and the file
//! count: same arguments, same bytes.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// Files one service writes (the `build/` folder included).
pub const FILES_PER_SERVICE: usize = 50;

/// A small deterministic generator (xorshift64*): no dependency, same
/// sequence on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so that nearby seeds diverge at once.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// What was written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub services: usize,
    /// Files written, the ignored ones included.
    pub files: usize,
    /// Files under `.gitignore`d folders.
    pub ignored: usize,
    pub bytes: u64,
}

/// Write a tree of about `files` files under `root` (created if needed),
/// using `threads` writer threads. Deterministic in `seed` and `files`.
pub fn generate(root: &Path, files: usize, seed: u64, threads: usize) -> io::Result<Summary> {
    let services = files.div_ceil(FILES_PER_SERVICE).max(1);
    std::fs::create_dir_all(root)?;
    let mut top = Writer::new(root);
    top.file(".gitignore", "build/\ntarget/\nnode_modules/\n*.log\n")?;
    top.file(
        "README.md",
        &format!("# Platform monorepo\n\n{services} services under `services/`.\n"),
    )?;
    let threads = threads.max(1).min(services);
    let results: Vec<io::Result<Summary>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut sum = Summary::default();
                    for i in (t..services).step_by(threads) {
                        let mut w = Writer::new(&root.join("services").join(name(i)));
                        service(&mut w, i, services, seed)?;
                        sum.services += 1;
                        sum.files += w.files;
                        sum.ignored += w.ignored;
                        sum.bytes += w.bytes;
                    }
                    Ok(sum)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("writer panicked")))
            })
            .collect()
    });
    let mut total = Summary {
        files: top.files,
        bytes: top.bytes,
        ..Summary::default()
    };
    for r in results {
        let r = r?;
        total.services += r.services;
        total.files += r.files;
        total.ignored += r.ignored;
        total.bytes += r.bytes;
    }
    Ok(total)
}

fn name(i: usize) -> String {
    format!("svc-{i:05}")
}

/// Writes files below one folder, creating folders once.
struct Writer {
    root: PathBuf,
    made: Vec<PathBuf>,
    files: usize,
    ignored: usize,
    bytes: u64,
}

impl Writer {
    fn new(root: &Path) -> Self {
        Writer {
            root: root.to_path_buf(),
            made: Vec::new(),
            files: 0,
            ignored: 0,
            bytes: 0,
        }
    }
    fn bytes(&mut self, rel: &str, data: &[u8]) -> io::Result<()> {
        let path = self.root.join(rel);
        if let Some(dir) = path.parent()
            && !self.made.iter().any(|d| d == dir)
        {
            std::fs::create_dir_all(dir)?;
            self.made.push(dir.to_path_buf());
        }
        std::fs::write(&path, data)?;
        self.files += 1;
        if rel.starts_with("build/") {
            self.ignored += 1;
        }
        self.bytes += data.len() as u64;
        Ok(())
    }
    fn file(&mut self, rel: &str, text: &str) -> io::Result<()> {
        self.bytes(rel, text.as_bytes())
    }
}

/// One service: 50 files.
fn service(w: &mut Writer, i: usize, n: usize, seed: u64) -> io::Result<()> {
    let mut r = Rng::new(seed ^ (i as u64).wrapping_mul(0x0100_0000_01B3));
    let me = name(i);
    let next = name((i + 1) % n);
    let back = name(i.saturating_sub(3));
    let pkg = me.replace('-', "");
    // Supported configuration, every format (10 files).
    w.file(
        "src/main/resources/application.yml",
        &spring_yaml(&mut r, &me, &next),
    )?;
    w.file(
        "src/main/resources/application-prod.properties",
        &spring_properties(&mut r, &next),
    )?;
    w.file(
        "k8s/deployment.yaml",
        &deployment(&mut r, &me, &next, &back, i),
    )?;
    w.file("k8s/virtual-service.yaml", &virtual_service(&mut r, &me))?;
    w.file("deploy/envoy.yaml", &envoy(&mut r, &next))?;
    w.file("deploy/nginx/nginx.conf", &nginx(&mut r, &me))?;
    w.file("config/service_config.json", &grpc(&mut r, &pkg))?;
    w.file("dotnet/appsettings.json", &appsettings(&mut r, &next))?;
    w.file(".aws/config", &aws(&mut r))?;
    w.file("Cargo.toml", &format!("[package]\nname = \"{me}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nbackon = \"1\"\nreqwest = \"0.12\"\ntokio = {{ version = \"1\", features = [\"full\"] }}\n"))?;
    // Java (8 files, 2 with retry code) and Rust (6 files, 2 with retry code).
    for j in 0..8 {
        let class = format!("{}{}", r.pick(NOUNS), r.pick(SUFFIXES));
        let path = format!("src/main/java/com/example/{pkg}/{class}{j}.java");
        w.file(
            &path,
            &java(&mut r, &pkg, &format!("{class}{j}"), j < 2, &next),
        )?;
    }
    for j in 0..6 {
        let module = format!("{}_{j}", r.pick(NOUNS).to_ascii_lowercase());
        w.file(&format!("src/{module}.rs"), &rust(&mut r, j < 2, &next))?;
    }
    // Files no extractor wants (18), a C# file and a Python client.
    w.file("README.md", &prose(&mut r, &me, 40))?;
    for d in 0..3 {
        // The third is the service's .NET defaults (C#, read by the C#
        // reader); its prose is drawn all the same, so the rest of the
        // tree is as it was.
        let body = prose(&mut r, &me, 80);
        if d == 2 {
            w.file("dotnet/ServiceDefaults/Extensions.cs", &csharp(&next))?;
        } else {
            w.file(&format!("docs/design-{d}.md"), &body)?;
        }
    }
    w.file("CHANGELOG.md", &prose(&mut r, &me, 30))?;
    for p in 0..3 {
        // The third is a Python client of the next service, which the
        // Python reader reads (the randomness is drawn all the same, so
        // the rest of the tree is as it was).
        let body = python(&mut r);
        let body = if p == 2 { python_client(&next) } else { body };
        w.file(&format!("scripts/tool_{p}.py"), &body)?;
    }
    for p in 0..3 {
        w.file(&format!("web/src/component{p}.ts"), &typescript(&mut r))?;
    }
    w.file("web/package.json", &format!("{{\n  \"name\": \"{me}-web\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n  \"scripts\": {{ \"build\": \"tsc\" }}\n}}\n"))?;
    w.file("web/package-lock.json", &npm_lock(&mut r, &me))?;
    w.file("Cargo.lock", &cargo_lock(&mut r))?;
    w.file("go/main.go", &golang(&mut r))?;
    // A Go client of the next service, which the Go reader reads (no
    // randomness drawn: the rest of the tree stays as it was).
    w.file("go/client.go", &go_client(&next))?;
    w.file(
        "k8s/kustomization.yaml",
        "resources:\n- deployment.yaml\n- virtual-service.yaml\n",
    )?;
    w.file(
        "src/main/resources/messages.properties",
        "greeting=Hello\nfarewell=Goodbye\n",
    )?;
    for p in 0..3 {
        let img = image(&mut r);
        w.bytes(&format!("docs/img/diagram{p}.png"), &img)?;
    }
    // A build folder that .gitignore hides (6 files).
    for b in 0..3 {
        let img = image(&mut r);
        w.bytes(&format!("build/classes/Main{b}.class"), &img)?;
    }
    w.file(
        "build/resources/application.yml",
        &spring_yaml(&mut r, &me, &next),
    )?;
    w.file(
        "build/generated/Retry.java",
        &java(&mut r, &pkg, "Retry", true, &next),
    )?;
    w.file(
        "build/reports/index.html",
        &format!("<html><body>{}</body></html>\n", prose(&mut r, &me, 20)),
    )?;
    Ok(())
}

const NOUNS: &[&str] = &[
    "Order",
    "Payment",
    "Ledger",
    "Invoice",
    "Customer",
    "Shipment",
    "Catalog",
    "Inventory",
    "Account",
    "Session",
    "Report",
    "Quote",
    "Refund",
    "Cart",
    "Price",
];
const SUFFIXES: &[&str] = &[
    "Service",
    "Client",
    "Repository",
    "Controller",
    "Mapper",
    "Handler",
];
const WORDS: &[&str] = &[
    "the",
    "service",
    "retries",
    "calls",
    "upstream",
    "timeout",
    "budget",
    "request",
    "response",
    "cache",
    "deploy",
    "cluster",
    "latency",
    "error",
    "owner",
    "team",
    "queue",
    "event",
    "schema",
    "migration",
    "rollout",
    "metric",
    "alert",
    "page",
    "incident",
    "review",
    "and",
    "of",
    "to",
    "a",
];

fn spring_yaml(r: &mut Rng, me: &str, next: &str) -> String {
    let attempts = r.range(2, 6);
    let wait = r.range(1, 20) * 100;
    let jitter = if r.chance(50) {
        "      enableRandomizedWait: true\n      randomizedWaitFactor: 0.5\n"
    } else {
        ""
    };
    format!(
        "spring:\n  application:\n    name: {me}\nserver:\n  port: 8080\n\
         clients:\n  {next}:\n    base-url: http://{next}:8080\n\
         resilience4j:\n  retry:\n    instances:\n      {next}:\n        maxAttempts: {attempts}\n        waitDuration: {wait}ms\n{jitter}\
         \x20 circuitbreaker:\n    instances:\n      {next}:\n        slidingWindowSize: 20\n        failureRateThreshold: 50\n\
         management:\n  endpoints:\n    web:\n      exposure:\n        include: health,info,prometheus\n"
    )
}

fn spring_properties(r: &mut Rng, next: &str) -> String {
    let attempts = r.range(2, 5);
    let mult = r.range(2, 3);
    format!(
        "logging.level.root=INFO\nspring.datasource.url=jdbc:postgresql://db:5432/app\n\
         resilience4j.retry.instances.{next}.maxAttempts={attempts}\n\
         resilience4j.retry.instances.{next}.waitDuration=500ms\n\
         resilience4j.retry.instances.{next}.enableExponentialBackoff=true\n\
         resilience4j.retry.instances.{next}.exponentialBackoffMultiplier={mult}\n"
    )
}

fn deployment(r: &mut Rng, me: &str, next: &str, back: &str, i: usize) -> String {
    let replicas = r.range(2, 6);
    let extra = if i % 10 == 9 {
        format!(
            "        - name: CALLBACK_URL\n          value: http://{back}.shop.svc.cluster.local:8080\n"
        )
    } else {
        String::new()
    };
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {me}\n  namespace: shop\n\
         spec:\n  replicas: {replicas}\n  selector:\n    matchLabels:\n      app: {me}\n  template:\n    metadata:\n      labels:\n        app: {me}\n\
         \x20   spec:\n      containers:\n      - name: {me}\n        image: example/{me}:1.{replicas}.0\n        ports:\n        - containerPort: 8080\n\
         \x20       env:\n        - name: UPSTREAM_URL\n          value: http://{next}.shop.svc.cluster.local:8080\n{extra}\
         \x20       resources:\n          limits:\n            memory: 512Mi\n            cpu: 500m\n\
         ---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {me}\n  namespace: shop\nspec:\n  selector:\n    app: {me}\n  ports:\n  - port: 8080\n"
    )
}

fn virtual_service(r: &mut Rng, me: &str) -> String {
    let attempts = r.range(1, 4);
    let per_try = r.range(1, 5);
    let timeout = r.range(5, 30);
    format!(
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: {me}\n  namespace: shop\n\
         spec:\n  hosts:\n  - {me}.shop.svc.cluster.local\n  http:\n  - route:\n    - destination:\n        host: {me}.shop.svc.cluster.local\n\
         \x20   timeout: {timeout}s\n    retries:\n      attempts: {attempts}\n      perTryTimeout: {per_try}s\n      retryOn: connect-failure,refused-stream,unavailable,503\n"
    )
}

fn envoy(r: &mut Rng, next: &str) -> String {
    let retries = r.range(1, 5);
    format!(
        "static_resources:\n  listeners:\n  - name: egress\n    address:\n      socket_address: {{ address: 0.0.0.0, port_value: 15001 }}\n\
         \x20   filter_chains:\n    - filters:\n      - name: envoy.filters.network.http_connection_manager\n        typed_config:\n\
         \x20         \"@type\": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager\n\
         \x20         stat_prefix: egress\n          route_config:\n            name: local_route\n            virtual_hosts:\n            - name: {next}\n              domains: [\"*\"]\n\
         \x20             routes:\n              - match: {{ prefix: \"/\" }}\n                route:\n                  cluster: {next}\n                  timeout: 10s\n\
         \x20                 retry_policy:\n                    retry_on: connect-failure,refused-stream,5xx\n                    num_retries: {retries}\n                    per_try_timeout: 2s\n\
         \x20 clusters:\n  - name: {next}\n    type: STRICT_DNS\n    load_assignment:\n      cluster_name: {next}\n      endpoints:\n      - lb_endpoints:\n\
         \x20       - endpoint:\n            address:\n              socket_address: {{ address: {next}, port_value: 8080 }}\n"
    )
}

fn nginx(r: &mut Rng, me: &str) -> String {
    let tries = r.range(0, 5);
    format!(
        "# Edge proxy in front of {me}.\nworker_processes auto;\n\nevents {{\n    worker_connections 1024;\n}}\n\nhttp {{\n    upstream {me} {{\n\
         \x20       server {me}-0.{me}.shop.svc.cluster.local:8080;\n        server {me}-1.{me}.shop.svc.cluster.local:8080;\n    }}\n\n\
         \x20   server {{\n        listen 8080;\n\n        location /api/ {{\n            proxy_pass http://{me};\n\
         \x20           proxy_next_upstream error timeout http_502 http_503;\n            proxy_next_upstream_tries {tries};\n\
         \x20           proxy_connect_timeout 2s;\n            proxy_read_timeout 10s;\n        }}\n    }}\n}}\n"
    )
}

fn grpc(r: &mut Rng, pkg: &str) -> String {
    let attempts = r.range(2, 6);
    let codes = r.pick(&[
        "\"UNAVAILABLE\"",
        "\"UNAVAILABLE\", \"DEADLINE_EXCEEDED\"",
        "\"UNAVAILABLE\", \"NOT_FOUND\"",
    ]);
    format!(
        "{{\n  \"methodConfig\": [\n    {{\n      \"name\": [{{ \"service\": \"shop.{pkg}.Api\" }}],\n      \"timeout\": \"5s\",\n      \"retryPolicy\": {{\n\
         \x20       \"maxAttempts\": {attempts},\n        \"initialBackoff\": \"0.2s\",\n        \"maxBackoff\": \"2s\",\n        \"backoffMultiplier\": 2,\n\
         \x20       \"retryableStatusCodes\": [{codes}]\n      }}\n    }}\n  ]\n}}\n"
    )
}

fn appsettings(r: &mut Rng, next: &str) -> String {
    let attempts = r.range(2, 5);
    format!(
        "{{\n  // Polly v8 retry for calls to {next}\n  \"Logging\": {{ \"LogLevel\": {{ \"Default\": \"Information\" }} }},\n\
         \x20 \"Resilience\": {{\n    \"Upstream\": {{\n      \"MaxRetryAttempts\": {attempts},\n      \"BackoffType\": \"Exponential\",\n\
         \x20     \"UseJitter\": {},\n      \"Delay\": \"00:00:01\"\n    }}\n  }}\n}}\n",
        r.chance(50)
    )
}

fn aws(r: &mut Rng) -> String {
    let mode = r.pick(&["standard", "adaptive", "legacy"]);
    let attempts = r.range(2, 8);
    format!(
        "[default]\nregion = eu-west-1\nretry_mode = {mode}\nmax_attempts = {attempts}\n\n[profile ci]\nregion = us-east-1\n"
    )
}

/// A Java class of 3-8 KB; `retry` adds a hand-written retry loop.
fn java(r: &mut Rng, pkg: &str, class: &str, retry: bool, next: &str) -> String {
    let mut s = format!(
        "package com.example.{pkg};\n\nimport java.time.Duration;\nimport java.util.List;\nimport java.util.Optional;\n\n\
         /**\n * {class}: generated by gen_monorepo.\n */\npublic class {class} {{\n    private final Repository repository;\n\n\
         \x20   public {class}(Repository repository) {{\n        this.repository = repository;\n    }}\n\n"
    );
    if retry {
        let attempts = r.range(3, 10);
        let _ = write!(
            s,
            "    public Response call{next_camel}(Request request) throws Exception {{\n        int attempt = 0;\n        while (true) {{\n            try {{\n\
             \x20               return client.post(\"http://{next}:8080/api\", request);\n            }} catch (Exception e) {{\n\
             \x20               if (++attempt >= {attempts}) throw e;\n                Thread.sleep(1000);\n            }}\n        }}\n    }}\n\n",
            next_camel = next.replace('-', "")
        );
    }
    for m in 0..r.range(12, 30) {
        let noun = r.pick(NOUNS);
        let _ = write!(
            s,
            "    public Optional<{noun}> find{noun}{m}(long id) {{\n        if (id <= 0) {{\n            return Optional.empty();\n        }}\n\
             \x20       List<{noun}> found = repository.findAll(\"{noun}\", id);\n        for ({noun} item : found) {{\n\
             \x20           if (item.isActive() && item.getVersion() > {m}) {{\n                return Optional.of(item);\n            }}\n        }}\n\
             \x20       return Optional.empty();\n    }}\n\n"
        );
    }
    s.push_str("}\n");
    s
}

/// A Rust module of 2-6 KB; `retry` adds backon and a hand-written loop.
fn rust(r: &mut Rng, retry: bool, next: &str) -> String {
    let mut s = String::from("use std::collections::HashMap;\nuse std::time::Duration;\n\n");
    if retry {
        let times = r.range(2, 8);
        let _ = write!(
            s,
            "use backon::{{ExponentialBuilder, Retryable}};\n\n\
             pub async fn fetch(client: &reqwest::Client) -> Result<String, reqwest::Error> {{\n\
             \x20   (|| async {{ client.get(\"http://{next}:8080/api\").send().await?.text().await }})\n\
             \x20       .retry(ExponentialBuilder::default().with_max_times({times}))\n        .await\n}}\n\n\
             pub async fn wait_for_db(url: &str) -> Result<Pool, Error> {{\n    let mut attempt = 0;\n    loop {{\n        match Pool::connect(url).await {{\n\
             \x20           Ok(pool) => return Ok(pool),\n            Err(e) if attempt >= {times} => return Err(e),\n            Err(_) => {{\n\
             \x20               attempt += 1;\n                tokio::time::sleep(Duration::from_secs(2)).await;\n            }}\n        }}\n    }}\n}}\n\n"
        );
    }
    for m in 0..r.range(8, 24) {
        let noun = r.pick(NOUNS);
        let _ = write!(
            s,
            "/// Index {noun} records by key.\npub fn index_{m}(items: &[{noun}]) -> HashMap<u64, usize> {{\n    let mut out = HashMap::new();\n\
             \x20   for (i, item) in items.iter().enumerate() {{\n        if item.version > {m} {{\n            out.insert(item.id, i);\n        }}\n    }}\n    out\n}}\n\n"
        );
    }
    s
}

fn prose(r: &mut Rng, me: &str, words: u64) -> String {
    let mut s = format!("# {me}\n\n");
    for k in 0..words * 6 {
        s.push_str(r.pick(WORDS));
        s.push(if k % 14 == 13 { '\n' } else { ' ' });
    }
    s.push('\n');
    s
}

fn python(r: &mut Rng) -> String {
    let mut s = String::from("import json\nimport sys\n\n");
    for m in 0..r.range(5, 15) {
        let _ = write!(
            s,
            "def step_{m}(data):\n    out = []\n    for item in data:\n        if item.get('v', 0) > {m}:\n            out.append(item)\n    return out\n\n"
        );
    }
    s.push_str("if __name__ == '__main__':\n    print(json.dumps(step_0(json.load(sys.stdin))))\n");
    s
}

/// A Python client with a tenacity retry around a `requests` call (no
/// randomness drawn: the rest of the tree stays as it was).
fn python_client(next: &str) -> String {
    format!(
        "import requests\nfrom tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential\n\n\n\
         @retry(\n    stop=stop_after_attempt(3),\n    wait=wait_random_exponential(multiplier=0.5, max=10),\n\
         \x20   retry=retry_if_exception_type(requests.ConnectionError),\n)\n\
         def fetch(item_id):\n    return requests.get(f\"http://{next}:8080/api/{{item_id}}\", timeout=2).json()\n"
    )
}

/// .NET service defaults: the standard resilience handler on every
/// HttpClient, a typed client of the next service and a Polly v8 pipeline
/// (no randomness drawn).
fn csharp(next: &str) -> String {
    format!(
        "using Microsoft.Extensions.DependencyInjection;\nusing Polly;\nusing Polly.Retry;\n\n\
         public static class Extensions\n{{\n\
         \x20   public static IServiceCollection AddServiceDefaults(this IServiceCollection services)\n    {{\n\
         \x20       services.ConfigureHttpClientDefaults(http =>\n        {{\n\
         \x20           http.AddStandardResilienceHandler(o => o.Retry.DisableForUnsafeHttpMethods());\n        }});\n\
         \x20       services.AddHttpClient<NextClient>(c => c.BaseAddress = new Uri(\"http://{next}:8080\"));\n\
         \x20       services.AddResiliencePipeline(\"publish\", builder =>\n        {{\n\
         \x20           builder.AddRetry(new RetryStrategyOptions\n            {{\n\
         \x20               ShouldHandle = new PredicateBuilder().Handle<TimeoutException>(),\n\
         \x20               MaxRetryAttempts = 4,\n                BackoffType = DelayBackoffType.Exponential,\n\
         \x20               UseJitter = true,\n            }}).AddTimeout(TimeSpan.FromSeconds(2));\n        }});\n\
         \x20       return services;\n    }}\n}}\n"
    )
}

/// A Go client with a go-retryablehttp client and a cenkalti/backoff retry
/// around `net/http` calls.
fn go_client(next: &str) -> String {
    format!(
        "package main\n\nimport (\n\t\"net/http\"\n\t\"time\"\n\n\t\"github.com/cenkalti/backoff/v4\"\n\t\"github.com/hashicorp/go-retryablehttp\"\n)\n\n\
         func newClient() *retryablehttp.Client {{\n\tc := retryablehttp.NewClient()\n\tc.RetryMax = 3\n\
         \tc.Backoff = retryablehttp.LinearJitterBackoff\n\tc.HTTPClient.Timeout = 2 * time.Second\n\treturn c\n}}\n\n\
         func fetch() error {{\n\tclient := &http.Client{{Timeout: 2 * time.Second}}\n\
         \treturn backoff.Retry(func() error {{\n\t\t_, err := client.Get(\"http://{next}:8080/api/items\")\n\t\treturn err\n\t}}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))\n}}\n"
    )
}

fn typescript(r: &mut Rng) -> String {
    let mut s = String::from("import { useState } from 'react';\n\n");
    for m in 0..r.range(5, 15) {
        let noun = r.pick(NOUNS);
        let _ = write!(
            s,
            "export function {noun}View{m}(props: {{ id: number }}) {{\n  const [state, setState] = useState<number>({m});\n  return `<div>${{props.id + state}}</div>`;\n}}\n\n"
        );
    }
    s
}

fn golang(r: &mut Rng) -> String {
    let mut s = String::from("package main\n\nimport \"fmt\"\n\n");
    for m in 0..r.range(5, 15) {
        let _ = write!(
            s,
            "func step{m}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n\t\tif x > {m} {{\n\t\t\ttotal += x\n\t\t}}\n\t}}\n\treturn total\n}}\n\n"
        );
    }
    s.push_str("func main() {\n\tfmt.Println(step0([]int{1, 2, 3}))\n}\n");
    s
}

fn npm_lock(r: &mut Rng, me: &str) -> String {
    let mut s =
        format!("{{\n  \"name\": \"{me}-web\",\n  \"lockfileVersion\": 3,\n  \"packages\": {{\n");
    let n = r.range(20, 60);
    for k in 0..n {
        let v = r.next_u64() % 1000;
        let _ = write!(
            s,
            "    \"node_modules/pkg-{k}\": {{\n      \"version\": \"1.{v}.0\",\n      \"resolved\": \"https://registry.npmjs.org/pkg-{k}/-/pkg-{k}-1.{v}.0.tgz\",\n      \"integrity\": \"sha512-{:016x}{:016x}\"\n    }}{}\n",
            r.next_u64(),
            r.next_u64(),
            if k + 1 == n { "" } else { "," }
        );
    }
    s.push_str("  }\n}\n");
    s
}

fn cargo_lock(r: &mut Rng) -> String {
    let mut s = String::from("# This file is automatically @generated by Cargo.\nversion = 4\n\n");
    for k in 0..r.range(20, 60) {
        let _ = write!(
            s,
            "[[package]]\nname = \"crate-{k}\"\nversion = \"0.{}.{}\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{:016x}{:016x}\"\n\n",
            r.next_u64() % 20,
            r.next_u64() % 10,
            r.next_u64(),
            r.next_u64()
        );
    }
    s
}

/// Binary bytes (a PNG header and noise), 2-16 KB.
fn image(r: &mut Rng) -> Vec<u8> {
    let n = r.range(2048, 16384) as usize;
    let mut v = Vec::with_capacity(n);
    v.extend_from_slice(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    while v.len() < n {
        v.extend_from_slice(&r.next_u64().to_le_bytes());
    }
    v.truncate(n);
    v
}

#[allow(dead_code)]
fn main() {
    let mut files = 1000usize;
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--files" => {
                files = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "-h" | "--help" => usage(),
            _ if out.is_none() && !a.starts_with('-') => out = Some(PathBuf::from(a)),
            _ => usage(),
        }
    }
    let Some(out) = out else { usage() };
    if out.exists()
        && std::fs::read_dir(&out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        eprintln!(
            "gen_monorepo: `{}` exists and is not empty; remove it first",
            out.display()
        );
        std::process::exit(2);
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let start = std::time::Instant::now();
    match generate(&out, files, seed, threads) {
        Ok(s) => println!(
            "gen_monorepo: {} files ({} ignored), {} services, {:.1} MB in {:.2?} under {}",
            s.files,
            s.ignored,
            s.services,
            s.bytes as f64 / 1e6,
            start.elapsed(),
            out.display()
        ),
        Err(e) => {
            eprintln!("gen_monorepo: {e}");
            std::process::exit(1);
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: gen_monorepo [--files N] [--seed S] OUT_DIR");
    std::process::exit(2);
}
