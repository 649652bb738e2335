//! What an environment entry's call speaks when its value names a host
//! and nothing else (issue 17, stop 52): a `*_HOSTNAME` entry is an
//! address, the port entry beside a host (`<stem>_PORT`) and a protocol
//! word in the entry's name say the protocol, and the app's own hostname
//! (`KC_HOSTNAME`, `PUBLIC_HOSTNAME`) is no call. The fixture's README
//! works the edges out by hand.

use crate::common;

use common::graph::{build, protocol_edges};

#[test]
fn a_hosts_port_entry_and_name_say_its_protocol() {
    let (_, g) = build("testdata/graph/env-host-port-protocol");
    assert_eq!(
        protocol_edges(&g),
        [
            "cart -> pricing unknown x1",
            "cart -> sessions Redis x1",
            "counter -> db SQL x1",
            "orders -> queue AMQP x1",
            "proxy -> counter gRPC x1",
            "proxy -> product gRPC x1",
        ]
    );
}

/// An Istio `http` route's call is HTTP (it is counted with Istio's HTTP
/// default), or gRPC where the callee's Service port says so
/// (testdata/graph/istio-route-protocol/README.md; aks-store-demo's
/// gateway route was `unknown`).
#[test]
fn an_istio_http_routes_call_is_http() {
    let (_, g) = build("testdata/graph/istio-route-protocol");
    assert_eq!(
        protocol_edges(&g),
        [
            "store-front-gateway-external -> catalog gRPC x3",
            "store-front-gateway-external -> store-front HTTP x3",
        ]
    );
}
