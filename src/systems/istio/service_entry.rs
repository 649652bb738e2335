//! Istio `ServiceEntry`: the hosts it adds to the mesh's registry.
//!
//! A sidecar routes a call to a registered host with an HTTP port as it
//! routes one to a Service: through an HTTP route carrying the route's
//! policy, else Istio's default retry (istio/istio 86c9f01
//! `pilot/pkg/networking/core/route/route.go` `BuildDefaultHTTPOutboundRoute`
//! and `retry.DefaultPolicy`, used for every service of the registry,
//! ServiceEntries included). kiali/demos 7ee39129
//! `electronic-shop/games-service-entry.yaml` registers `*.msn.com`
//! (port 80, `HTTP`), and `games` calls `http://zone.msn.com/en-us/home`.
//!
//! Each host of an entry with such a port is declared a mesh route's host
//! (a glob such as `*.msn.com` too: the graph matches it, and it names no
//! service of its own).

use crate::extract::Facts;
use crate::model::ServiceDecl;
use crate::model::calls::IdentityKind;
use crate::yaml::Yaml;

/// The port protocols a sidecar reads at L7 (Istio's `protocol` values,
/// `pkg/config/protocol/instance.go`).
const L7: [&str; 4] = ["HTTP", "HTTP2", "GRPC", "GRPC-WEB"];

/// Read one `ServiceEntry`; always ours.
pub(super) fn read(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(spec) = root.get("spec") else {
        return true;
    };
    let ports = spec.get("ports").map(|p| p.items()).unwrap_or_default();
    let l7 = ports.iter().any(|p| {
        let protocol = p.get("protocol").and_then(|v| v.as_str());
        // Without a protocol, the port's name prefix says it (`http-..`).
        let named = p.get("name").and_then(|v| v.as_str()).unwrap_or("");
        let named = named.split(['-', '_']).next().unwrap_or("");
        L7.iter()
            .any(|l| protocol.unwrap_or(named).eq_ignore_ascii_case(l))
    });
    if !l7 {
        return true;
    }
    for h in spec.get("hosts").map(|h| h.items()).unwrap_or_default() {
        let Some(host) = h.as_str() else { continue };
        let name = match host.strip_prefix("*.") {
            // The glob kept whole: the graph matches it.
            Some(_) => host.to_ascii_lowercase(),
            None if host.contains('*') => continue,
            None => crate::extract::short_host(host),
        };
        facts.services.push(ServiceDecl::new(
            name,
            h.span(),
            IdentityKind::MeshRoute,
            "ServiceEntry hosts",
            vec![host.to_string()],
        ));
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::extract::Syntax;
    use std::path::Path;

    fn hosts(doc: &str) -> Vec<String> {
        let facts = crate::systems::extract(Path::new("se.yaml"), doc, Syntax::Yaml);
        facts.services.iter().map(|s| s.name.clone()).collect()
    }

    #[test]
    fn hosts_of_an_http_entry_are_registered_and_a_tls_only_ones_are_not() {
        let http = "apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: msn}\nspec:\n  hosts: [\"*.msn.com\", api.example.com]\n  ports:\n  - {number: 80, name: http-port, protocol: HTTP}\n  - {number: 443, name: https, protocol: HTTPS}\n";
        assert_eq!(hosts(http), ["*.msn.com", "api.example.com"]);
        let tls = "apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: t}\nspec:\n  hosts: [db.example.com]\n  ports:\n  - {number: 443, name: tls, protocol: TLS}\n";
        assert!(hosts(tls).is_empty());
        let by_name = "apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: n}\nspec:\n  hosts: [x.example.com]\n  ports:\n  - {number: 8080, name: http-web}\n";
        assert_eq!(hosts(by_name), ["x.example.com"]);
    }
}
