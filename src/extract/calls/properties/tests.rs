use super::*;

fn targets(src: &str) -> Vec<(String, String)> {
    let lexed = super::super::lex::lex(src, super::super::lex::Lang::Java);
    configuration_properties(src, &lexed.lits)
        .into_iter()
        .map(|(s, w)| (src[s.start..s.end].to_string(), w))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn direct_fields_of_a_class() {
    let src = r#"
@ConfigurationProperties(prefix = "order.destinations")
public class OrderDestinations {
  @NotNull
  private String orderServiceUrl;
  private String orderHistoryServiceUrl = "http://x";
  private String name;
  private int port;
  private static String defaultUrl;
  public String getOrderServiceUrl() { String tmpUrl; return orderServiceUrl; }
  public static class Nested { private String innerUrl; }
}"#;
    assert_eq!(
        targets(src),
        pairs(&[
            ("orderServiceUrl", "${order.destinations.orderServiceUrl}"),
            (
                "orderHistoryServiceUrl",
                "${order.destinations.orderHistoryServiceUrl}"
            ),
        ])
    );
}

#[test]
fn nested_classes_are_followed_by_the_field_that_holds_them() {
    let src = r#"
@Component
@ConfigurationProperties("app")
@Validated
public class AppProperties {
    private final Inventory inventory = new Inventory();
    private final Payments paymentService = new Payments();
    private List<Endpoint> mirrors = new ArrayList<>();
    private Map<String, Endpoint> byName;
    private Duration timeout = Duration.ofSeconds(2);
    private String[] fallbackUrls = { "http://a", "http://b" };

    public Inventory getInventory() { return inventory; }

    public static class Inventory {
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration readTimeout;
        private URI baseUrl;
        private Retry retry = new Retry();
    }

    public static class Payments {
        private java.net.URL endpoint;
        private String host;
        private int port;
    }

    public static class Retry { private int maxAttempts; private String callbackUrl; }

    public static class Endpoint { private String url; }
}"#;
    assert_eq!(
        targets(src),
        pairs(&[
            ("baseUrl", "${app.inventory.baseUrl}"),
            ("callbackUrl", "${app.inventory.retry.callbackUrl}"),
            ("endpoint", "${app.paymentService.endpoint}"),
            ("host", "${app.paymentService.host}"),
        ])
    );
}

#[test]
fn records_bind_their_components() {
    let src = r#"
@ConfigurationProperties(prefix = "clients")
public record ClientProperties(
        @DefaultValue("http://orders:8080") URI ordersUrl,
        Service inventory,
        Service shipping,
        @NotNull String auditBaseUrl,
        Map<String, Service> others) {

    public record Service(URI baseUrl, Duration timeout) {}
}"#;
    // `Service` is reached by two components: each is shown where it is
    // named, not at the one `baseUrl` they share.
    assert_eq!(
        targets(src),
        pairs(&[
            ("ordersUrl", "${clients.ordersUrl}"),
            ("inventory", "${clients.inventory.baseUrl}"),
            ("shipping", "${clients.shipping.baseUrl}"),
            ("auditBaseUrl", "${clients.auditBaseUrl}"),
        ])
    );
}

#[test]
fn a_bean_method_and_a_placeholder_prefix_give_nothing() {
    // The bound type is the method's, declared elsewhere.
    let bean = r#"
@Configuration
class Config {
    @Bean
    @ConfigurationProperties(prefix = "orders")
    OrdersProperties orders() { String url = "x"; return new OrdersProperties(); }
}
class Other { private String otherUrl; }"#;
    assert!(targets(bean).is_empty(), "{:?}", targets(bean));
    let held = r#"@ConfigurationProperties("${p}") class P { String aUrl; }"#;
    assert!(targets(held).is_empty());
}

#[test]
fn nesting_is_bounded() {
    // A type that holds itself (a tree of settings) stops at the bound.
    let src = r#"
@ConfigurationProperties("t")
class Node { private Node child; private String nodeUrl; }"#;
    let mut got: Vec<String> = targets(src).into_iter().map(|(_, w)| w).collect();
    got.sort_by_key(String::len);
    assert_eq!(
        got,
        [
            "${t.nodeUrl}",
            "${t.child.nodeUrl}",
            "${t.child.child.nodeUrl}",
            "${t.child.child.child.nodeUrl}",
            "${t.child.child.child.child.nodeUrl}",
        ]
    );
}

#[test]
fn never_panics_on_cut_text() {
    let src = r#"@ConfigurationProperties("a") public record R(Inner x, String yUrl) { record Inner(String zUrl"#;
    for end in 0..=src.len() {
        if src.is_char_boundary(end) {
            let _ = targets(&src[..end]);
        }
    }
}

#[test]
fn a_default_that_is_no_address_is_no_call() {
    // Spring Cloud Sleuth's span tag names (train-ticket's vendored copy,
    // old-docs/Lib/ms-monitoring-core ChainKeys.java): keys, not hosts.
    let src = r#"
@ConfigurationProperties("spring.sleuth.keys")
public class ChainKeys {
    private Http http = new Http();
    public static class Http {
        private String host = "http.host";
        private String url = "http.url";
        private String path = "http.path";
    }
    private Remote remote = new Remote();
    public static class Remote {
        private String host = "collector.internal";
        private String baseUrl = "http://zipkin:9411";
        private String reportUrl = "/api/v2/spans";
        private String endpointUrl;
    }
}"#;
    assert_eq!(
        targets(src),
        pairs(&[
            ("host", "${spring.sleuth.keys.remote.host}"),
            ("baseUrl", "${spring.sleuth.keys.remote.baseUrl}"),
            ("endpointUrl", "${spring.sleuth.keys.remote.endpointUrl}"),
        ])
    );
}

#[test]
fn bean_methods_bind_the_type_they_return() {
    let src = r#"
@Configuration
class StockConfig {
  @Bean
  @ConfigurationProperties(prefix = "stock.lookup")
  public LookupSettings lookupSettings() { return new LookupSettings(); }

  @ConfigurationProperties("billing") @Bean @Primary
  Holder<String> billing() { return new Holder<>(); }

  @Bean
  @ConfigurationProperties(prefix = "${dynamic}")
  Other other() { return new Other(); }
}"#;
    let lexed = super::super::lex::lex(src, super::super::lex::Lang::Java);
    let got: Vec<(String, String, String)> = bean_bound(src, &lexed.lits)
        .into_iter()
        .map(|b| (b.prefix, b.ty, src[b.span.start..b.span.end].to_string()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "stock.lookup".into(),
                "LookupSettings".into(),
                "stock.lookup".into()
            ),
            ("billing".into(), "Holder".into(), "billing".into()),
        ]
    );
    // A type annotated in its own file is not a bean method's.
    let own = "@ConfigurationProperties(prefix = \"x\")\n@Bean\npublic record Props(String url) {}";
    let lexed = super::super::lex::lex(own, super::super::lex::Lang::Java);
    assert!(bean_bound(own, &lexed.lits).is_empty());
}

#[test]
fn members_of_a_type_bound_elsewhere() {
    let src = r#"
package shop.props;
public class LookupSettings {
  private String baseUrl;
  private java.time.Duration timeout;
  private Fallback fallback = new Fallback();
  public static class Fallback { private URI endpoint; }
}"#;
    let got: Vec<String> = bound_members(src, "LookupSettings", "stock.lookup")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        got,
        [
            "${stock.lookup.baseUrl}",
            "${stock.lookup.fallback.endpoint}"
        ]
    );
    assert!(bound_members(src, "Missing", "x").is_empty());
}
