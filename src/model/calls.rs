//! How calls are named and marked, as extractors write them and the graph
//! reads them: a host as a service name ([`short_host`]), a call outside
//! any mesh ([`outside_mesh`]), a retryer built by a `@Bean` method
//! ([`Scope::BEAN_RETRYER`]).

use super::Scope;

/// A host as a service name: `orders.shop.svc.cluster.local:8080` and
/// `http://orders:8080/x` are `orders`; external names stay whole.
pub fn short_host(host: &str) -> String {
    let h = host.trim();
    let h = h.split_once("://").map_or(h, |(_, rest)| rest);
    let h = h.split(['/', '?']).next().unwrap_or(h);
    let h = h.rsplit_once('@').map_or(h, |(_, rest)| rest);
    let h = match h.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => h,
    };
    let h = h.trim_end_matches('.');
    let labels: Vec<&str> = h.split('.').collect();
    const TLDS: &[&str] = &[
        "com",
        "org",
        "net",
        "io",
        "dev",
        "cloud",
        "app",
        "co",
        "uk",
        "de",
        "internal",
        "local",
        "aws",
        "amazonaws",
    ];
    // `svc.ns.svc.cluster.local`; a StatefulSet pod's own name,
    // `pod.svc.ns.svc.cluster.local`, reaches the same service.
    if let Some(i) = labels.iter().position(|l| *l == "svc") {
        return if i >= 3 { labels[i - 2] } else { labels[0] }.to_string();
    }
    if labels.len() == 2 && !TLDS.contains(&labels[1]) {
        labels[0].to_string()
    } else {
        h.to_string()
    }
}

/// The start of [`super::CallEdge::via`] for calls a docker-compose file
/// shows.
pub const COMPOSE_VIA: &str = "docker-compose";

/// Whether a call shown `via` this runs outside any service mesh (a
/// docker-compose network): no sidecar handles it.
pub fn outside_mesh(via: &str) -> bool {
    via.starts_with(COMPOSE_VIA)
}

impl Scope {
    /// The route of a retry layer built in a `@Bean` method (a Feign
    /// `Retryer` bean), for messages: the graph reads the typed
    /// [`super::ClientScope::Bean`].
    pub const BEAN_RETRYER: &'static str = "@Bean Retryer";
}

#[cfg(test)]
mod host_tests {
    use super::short_host;

    #[test]
    fn hosts_normalise_to_service_names() {
        assert_eq!(short_host("orders.shop.svc.cluster.local:8080"), "orders");
        assert_eq!(
            short_host("orders-0.orders.shop.svc.cluster.local:8080"),
            "orders"
        );
        assert_eq!(short_host("orders.shop.svc"), "orders");
        assert_eq!(short_host("http://payments:8080/api"), "payments");
        assert_eq!(short_host("reviews.prod"), "reviews");
        assert_eq!(short_host("orders"), "orders");
        assert_eq!(short_host("api.stripe.com"), "api.stripe.com");
        assert_eq!(
            short_host("dynamodb.us-east-1.amazonaws.com"),
            "dynamodb.us-east-1.amazonaws.com"
        );
    }
}
