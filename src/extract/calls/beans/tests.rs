use super::*;
use crate::extract::calls::lex::{Lang, lex};

fn refs(text: &str) -> Vec<(String, String, String)> {
    let lexed = lex(text, Lang::Java);
    property_refs(text, &lexed.lits)
        .into_iter()
        .map(|r| {
            (
                r.props_type,
                r.path,
                text[r.span.start..r.span.end].to_string(),
            )
        })
        .collect()
}

#[test]
fn bean_methods_find_params_and_bodies() {
    let config = "@Configuration\nclass C {\n  @Bean\n  @Primary\n  public WebClient webClient(Props p, WebClient.Builder b) {\n    return b.baseUrl(\"http://x\").build(); // }\n  }\n  @Bean(name = \"t\") RestTemplate rest() { return new RestTemplate(); }\n  @Bean Other other() { return null; }\n}\n";
    let got: Vec<(&str, &str, &str)> = bean_methods(config)
        .into_iter()
        .map(|m| {
            (
                m.ty,
                &config[m.params.start..m.params.end],
                &config[m.body.start..m.body.start + 8],
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("WebClient", "(Props p, WebClient.Builder b)", "{\n    re"),
            ("RestTemplate", "()", "{ return")
        ]
    );
}

/// Polar Bookshop's bean (yeongseoksong/cloud-native-spring 838e7ee,
/// ClientConfig.java:11-13), a getter on a field-injected JavaBean, a
/// nested record accessor.
#[test]
fn base_urls_read_from_a_properties_member() {
    let polar = "@Configuration\npublic class ClientConfig {\n    @Bean\n    WebClient webClient(ClientProperties clientProperties,WebClient.Builder webClientBuilder) {\n        return webClientBuilder.baseUrl(clientProperties.catalogServiceUri().toString()).build();\n    }\n}\n";
    assert_eq!(
        refs(polar),
        [(
            "ClientProperties".to_string(),
            "catalogServiceUri".to_string(),
            "clientProperties.catalogServiceUri()".to_string()
        )]
    );
    let field = "class R {\n  private final CartProperties properties;\n  R(CartProperties properties) { this.properties = properties; }\n  @Bean public RestTemplate t(RestTemplateBuilder b) {\n    return b.rootUri(this.properties.getPricingServiceUrl().toString()).setReadTimeout(properties.getTimeout()).build();\n  }\n}\n";
    assert_eq!(
        refs(field),
        [(
            "CartProperties".to_string(),
            "pricingServiceUrl".to_string(),
            "properties.getPricingServiceUrl()".to_string()
        )]
    );
    let nested = "class R {\n  @Bean RestClient c(RestClient.Builder b, Clients clients) {\n    return b.baseUrl(clients.orders().baseUrl()).build();\n  }\n}\n";
    assert_eq!(refs(nested)[0].1, "orders.baseUrl");
}

/// What is no member read of a properties type gives nothing: a literal
/// (the call reader's), a concatenation, a method with arguments, a
/// builder's own variable, a bean of another type, a commented base URL.
#[test]
fn other_base_urls_give_no_reference() {
    for text in [
        "class C { @Bean WebClient w(WebClient.Builder b) { return b.baseUrl(\"http://x\").build(); } }",
        "class C { @Bean WebClient w(P p, WebClient.Builder b) { return b.baseUrl(p.host() + \"/v1\").build(); } }",
        "class C { @Bean WebClient w(P p, WebClient.Builder b) { return b.baseUrl(p.url(\"x\")).build(); } }",
        "class C { @Bean WebClient w(WebClient.Builder b, String url) { return b.baseUrl(url).build(); } }",
        "class C { @Bean Other w(P p, Other.Builder b) { return b.baseUrl(p.url()).build(); } }",
        "class C { @Bean WebClient w(P p, WebClient.Builder b) { return b/*.baseUrl(p.url())*/.build(); } }",
        "class C { @Bean WebClient w(WebClient.Builder b) { return b.baseUrl(b.url()).build(); } }",
    ] {
        assert!(refs(text).is_empty(), "{text}: {:?}", refs(text));
    }
}

/// The course's webapp (sivaprasadreddy/spring-boot-microservices-course
/// 0e759ec, `bookstore-webapp/.../clients/ClientsConfig.java:23-33`): a
/// `RestClientCustomizer` bean's lambda sets the base URL of every
/// `RestClient` built from the builder; read as a `RestClient` bean.
#[test]
fn a_customizer_bean_sets_its_clients_base_url() {
    let text = "@Configuration\nclass ClientsConfig {\n    private final ApplicationProperties properties;\n    ClientsConfig(ApplicationProperties properties) {\n        this.properties = properties;\n    }\n    @Bean\n    RestClientCustomizer restClientCustomizer() {\n        return restClientBuilder ->\n                restClientBuilder.baseUrl(properties.apiGatewayUrl()).requestFactory(f);\n    }\n}\n";
    assert_eq!(
        bean_methods(text).iter().map(|m| m.ty).collect::<Vec<_>>(),
        ["RestClient"]
    );
    assert_eq!(
        refs(text),
        [(
            "ApplicationProperties".to_string(),
            "apiGatewayUrl".to_string(),
            "properties.apiGatewayUrl()".to_string()
        )]
    );
}
