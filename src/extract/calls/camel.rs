//! Apache Camel's HTTP producer endpoints (issue 17): a route's
//! `.to("http4:preference:8080/?bridgeEndpoint=true")` sends the exchange
//! to `preference` over HTTP. Camel writes an endpoint as
//! `component:path?options`: the HTTP components are `http` and `https`
//! (Camel 3 and later; Camel 2's HTTP 4 client was `http4`/`https4`),
//! their path `host[:port][/path]`, with or without `//`
//! (camel.apache.org/components/latest/http-component.html, "URI
//! format"). Only a producer step sends: `to`, `toD` (a dynamic URI),
//! `toF` (a formatted one), `enrich`, `pollEnrich` and `wireTap`; `from`
//! with an HTTP-serving component (`jetty:`, `servlet:`) is the service's
//! own endpoint, and other components (`log:`, `direct:`, `kafka:`) are
//! not HTTP calls.

/// The route steps that send the exchange to their endpoint.
const PRODUCERS: &[&str] = &["to", "toD", "toF", "enrich", "pollEnrich", "wireTap"];

/// Camel's HTTP components, as an endpoint URI starts.
const SCHEMES: &[&str] = &["http4:", "https4:", "http:", "https:"];

/// The `host[:port]` an HTTP endpoint URI `uri` given to the route step
/// `step` sends to; `None` for any other step or component. A URI with
/// `//` after `http:` or `https:` is a URL the caller reads as one.
pub fn http_endpoint<'a>(step: &str, uri: &'a str) -> Option<&'a str> {
    if !PRODUCERS.contains(&step) {
        return None;
    }
    let rest = SCHEMES.iter().find_map(|s| uri.strip_prefix(s))?;
    if rest.starts_with("//") && !uri.starts_with("http4:") && !uri.starts_with("https4:") {
        return None;
    }
    let rest = rest.trim_start_matches('/');
    let host = rest.split(['/', '?']).next().unwrap_or(rest);
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::http_endpoint;

    #[test]
    fn producer_steps_to_http_components_name_their_host() {
        let cases = [
            (
                "to",
                "http4:preference:8080/?bridgeEndpoint=true",
                Some("preference:8080"),
            ),
            ("to", "https4://orders/api", Some("orders")),
            (
                "toD",
                "http:orders:8080/x/${header.id}",
                Some("orders:8080"),
            ),
            ("enrich", "https:catalog", Some("catalog")),
            // A URL: read as one elsewhere.
            ("to", "http://preference:8080", None),
            // Not a producer, not an HTTP component.
            ("from", "http4:preference:8080", None),
            ("to", "log:out", None),
            ("to", "direct:next", None),
            ("to", "http4:", None),
        ];
        for (step, uri, want) in cases {
            assert_eq!(http_endpoint(step, uri), want, "{step}({uri:?})");
        }
    }
}
