use super::lex::{Lang, lex};
use super::*;

fn edges(text: &str, lang: Lang) -> (Vec<String>, Vec<String>) {
    let mut facts = Facts::default();
    extract(text, lang, &mut facts);
    (
        facts.edges.iter().map(|e| e.callee.clone()).collect(),
        facts.unresolved.iter().map(|u| u.written.clone()).collect(),
    )
}

#[test]
fn rest_template_calls_without_retry_words_are_edges() {
    let java = r#"
package user.service.impl;
public class UserServiceImpl implements UserService {
    @Autowired private RestTemplate restTemplate;
    public Response create(User u, HttpHeaders headers) {
        // see http://docs-host/not-a-call for the protocol
        /* "http://commented-out:1/x" */
        ResponseEntity<Response> r = restTemplate.exchange(
            "http://ts-auth-service:12340/api/v1/auth",
            HttpMethod.POST, new HttpEntity<>(u, headers), Response.class);
        String s = restTemplate.getForObject("http://ts-order-service:12031/api/v1/orders/" + id, String.class);
        LOGGER.info("calling http://ts-logged-service:1/x now");
        LOGGER.error("http://ts-logged-too:1/x");
        throw new IllegalStateException("http://ts-exception-service:1/down");
    }
}
"#;
    let (e, u) = edges(java, Lang::Java);
    assert_eq!(e, ["ts-auth-service:12340", "ts-order-service:12031"]);
    assert!(u.is_empty(), "{u:?}");
}

#[test]
fn localhost_docs_and_annotations_give_no_edge_addresses_are_left_to_the_graph() {
    let java = r#"
@ApiOperation(value = "see https://orders.example.net/docs")
class A {
    String a = "http://10.141.212.24:8080/x";
    String b = "http://localhost:8080/x";
    String c = "https://github.com/FudanSELab/train-ticket";
    String d = "http://www.w3.org/2001/XMLSchema";
    String e = "http://[::1]:50051";
    Docket docket() { return new ApiInfoBuilder().termsOfServiceUrl("https://terms.host/x").build(); }
    char q = '"'; String f = "http://after-char:1/";
}
"#;
    let (e, u) = edges(java, Lang::Java);
    // An address other than this machine's is a call: the graph keeps it
    // where a manifest gives the address to a service, and drops it
    // elsewhere (`ip_addresses_join_the_service_a_manifest_gives_them_to`).
    assert_eq!(e, ["10.141.212.24:8080", "after-char:1"]);
    assert!(u.is_empty(), "{u:?}");
}

#[test]
fn placeholders_and_environment_lookups_are_unresolved_not_guessed() {
    let java = r#"
class B {
    @Value("${orders.url}") String orders;
    @Value("${spring.application.name}") String name;
    @Value("${payments.url:http://payments:8080}") String payments;
    String env = System.getenv("INVENTORY_URL");
    String home = System.getenv("HOME");
    String fmt = String.format("http://%s:8080/x", host);
    String joined = "http://" + host + "/x";
    String port = "http://carts:" + port;
}
"#;
    let (e, u) = edges(java, Lang::Java);
    assert_eq!(e, ["payments:8080", "carts"]);
    assert_eq!(
        u,
        [
            "${orders.url}",
            "env INVENTORY_URL",
            "http://%s:8080/x",
            "http://"
        ]
    );
}

#[test]
fn rust_calls_skip_test_items_comments_and_messages() {
    let rust = r##"
//! Calls `http://doc-comment:1/` in docs.
/// "http://doc-comment-too:1/"
async fn run(client: &reqwest::Client) -> anyhow::Result<()> {
    client.get("http://orders:8080/api").send().await?;
    let raw = r#"http://raw-orders:9/x"#;
    tracing::info!("calling http://logged:1/");
    anyhow::bail!("http://failed:1/");
    let url = std::env::var("PAYMENTS_URL")?;
    let t = format!("http://{}/x", host);
    let lifetime: &'static str = "http://after-lifetime:2/";
    Ok(())
}
#[cfg(test)]
mod tests {
    #[test]
    fn t() { let _ = "http://in-test-module:1/"; }
}
#[test]
fn loose() { let _ = "http://in-test-fn:1/"; }
#[cfg(test)]
mod helpers;
#[cfg(test)]
#[path = "extra_tests.rs"]
mod extra;
"##;
    let (e, u) = edges(rust, Lang::Rust);
    assert_eq!(e, ["orders", "raw-orders", "after-lifetime"]);
    assert_eq!(u, ["env PAYMENTS_URL", "http://{}/x"]);
    let lexed = lex(rust, Lang::Rust);
    let mods: Vec<&str> = lexed.test_modules.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(mods, ["helpers", "extra"]);
}

#[test]
fn grpc_channels_and_lb_uris_are_edges() {
    let java = r#"
class C {
    ManagedChannel a = ManagedChannelBuilder.forAddress("inventory", 9090).usePlaintext().build();
    ManagedChannel b = ManagedChannelBuilder.forTarget("dns:///shipping:9090").build();
    RouteLocator r = builder.routes().route(p -> p.path("/x").uri("lb://catalog")).build();
}
"#;
    let (e, _) = edges(java, Lang::Java);
    assert_eq!(e, ["inventory", "shipping:9090", "catalog"]);
}

#[test]
fn the_needles_find_candidate_files_only() {
    assert!(wants(
        b"restTemplate.getForObject(\"http://a:1/\", String.class)"
    ));
    assert!(wants(b"class A { WebClient c; }"));
    assert!(!wants(b"class A { int x = 1; String s = \"plain\"; }"));
}

#[test]
fn service_hosts() {
    assert!(names_service("http://config-server:8888"));
    assert!(!names_service("https://localhost:8888"));
    // An address: the graph joins it to the service a manifest gives it.
    assert!(names_service("http://10.0.0.7:8080/x"));
    assert!(!names_service("http://127.0.0.1:8080/x"));
    assert!(!names_service("http://0.0.0.0:8080"));
}

#[test]
fn url_keys() {
    for k in [
        "ORDERS_URL",
        "orders.base-url",
        "paymentServiceUri",
        "REDIS_ADDR",
        "catalog.host",
    ] {
        assert!(url_key(k), "{k}");
    }
    for k in ["HOME", "spring.application.name", "orders.timeout", "PATH"] {
        assert!(!url_key(k), "{k}");
    }
}

#[test]
fn unbalanced_or_truncated_text_never_panics() {
    for t in [
        "\"",
        "'",
        "r#\"",
        "/*",
        "#[cfg(test)] mod",
        "#[",
        "((((\"http://a:1/\"",
        "b\"",
        "'\\",
        "\"\"\"",
        "x = r##\"http://a/\"#",
        "é'é",
        "@",
        "new",
    ] {
        let _ = lex(t, Lang::Java);
        let _ = lex(t, Lang::Rust);
        let mut f = Facts::default();
        extract(t, Lang::Rust, &mut f);
        extract(t, Lang::Java, &mut f);
    }
}

#[test]
fn a_scheme_looked_for_in_a_string_is_no_call() {
    let rust = r#"
fn host_of(v: &str) -> Option<&str> {
    if !(v.starts_with("http://") || v.starts_with("https://")) {
        return None;
    }
    v.strip_prefix("https://").or_else(|| v.strip_prefix("http://orders/"))
}
"#;
    assert_eq!(edges(rust, Lang::Rust), (vec![], vec![]));
    let java = r#"
class U {
    boolean secure(String u) { return u.startsWith("https://") || u.equals("http://payments/x"); }
    String joined = "http://" + host + "/x";
}
"#;
    let (e, u) = edges(java, Lang::Java);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(u, ["http://"]);
}

#[test]
fn service_ids_looked_up_in_the_registry_are_edges_other_choices_not() {
    let java = r#"
class C {
    URI a() { return discoveryClient.getInstances("customers-service").get(0).getUri(); }
    ServiceInstance b() { return loadBalancerClient.choose("stores"); }
    String c() { return random.choose("not-a-service"); }
    String d() { return options.choose("nor-this"); }
}
"#;
    let (e, u) = edges(java, Lang::Java);
    assert_eq!(e, ["customers-service", "stores"]);
    assert!(u.is_empty(), "{u:?}");
}

/// meilisearch/meilisearch 5cb2f2e94 `crates/meilisearch/src/personalization/mod.rs`:
/// a link in an error struct (`issue_link: "https://github.com/.."`) is
/// for people to follow, not a call; a base URL in a field is one.
#[test]
fn urls_in_documentation_fields_are_no_calls() {
    let rust = r#"
fn err() -> Error {
    Error::FeatureNotEnabled(FeatureNotEnabledError {
        feature: "personalization",
        issue_link: "https://github.com/orgs/acme/discussions/866",
    })
}
fn client() -> Client {
    Client { base_url: "http://orders:8080", help_url: "https://docs.acme.io/orders" }
}
const ORDERS_B: &str = "http://orders-b:8080/x";
fn same(a: &str) -> bool { a == "http://compared:1/" }
"#;
    let (e, _) = edges(rust, Lang::Rust);
    assert_eq!(e, ["orders", "orders-b", "compared"]);
    let java = r#"
class Links {
    static final String HELP_LINK = "https://github.com/acme/issues";
    void call() { restTemplate.getForObject("http://orders:8080/x", String.class); }
    Info info() { return new Info().licenseUrl("https://license.acme.io"); }
}
"#;
    let (e, _) = edges(java, Lang::Java);
    assert_eq!(e, ["orders:8080"]);
}

/// redhat-scholars/istio-tutorial aea73b3 `RecommendationPersistenceVerticle.java`:
/// a JDBC URL in a constant is a call to its host, with the store's
/// protocol; an embedded database and a file URL are none.
#[test]
fn data_store_urls_are_calls_with_their_protocol() {
    use crate::model::calls::Protocol;
    assert_eq!(
        store_url("jdbc:postgresql://postgres:5432/recommendation"),
        Some(("postgres:5432".to_string(), Protocol::Sql))
    );
    assert_eq!(
        store_url("mongodb://orders-db:27017/orders").map(|(_, p)| p),
        Some(Protocol::Mongo)
    );
    assert_eq!(store_url("jdbc:h2:mem:test"), None);
    assert_eq!(store_url("http://orders:8080"), None);
    assert_eq!(store_url("file:///tmp/x"), None);
    let java = r#"
class Db {
    private static final String URL = "jdbc:postgresql://postgres:5432/recommendation";
    private static final String LOCAL = "redis://localhost:6379";
}
"#;
    let (e, _) = edges(java, Lang::Java);
    assert_eq!(e, ["postgres:5432"]);
}
