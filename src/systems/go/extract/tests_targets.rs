//! gRPC dial targets: a service config written at the dial, and the
//! targets that name no service (sockets of this machine).

use super::*;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

#[test]
fn grpc_service_config_literal_and_targets() {
    let f = read(
        r#"package main
import "google.golang.org/grpc"
const cfg = `{"methodConfig": [{"name": [{"service": "orders.Orders"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s",
  "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
func dial() {
    conn, err := grpc.NewClient("dns:///orders:50051", grpc.WithDefaultServiceConfig(cfg))
    _ = conn
    _ = err
}
"#,
    );
    // The service config's own edge (to `orders.Orders`), then the dial's.
    assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    let dial = f.edges.iter().find(|e| e.via.contains("in Go")).unwrap();
    assert_eq!(dial.callee, "orders");
    assert_eq!(dial.policies, vec![0]);
}

/// A dial of a Unix socket is this machine: no edge, nothing unresolved
/// (dapr's pluggable components, `grpc.DialContext(ctx, "unix://" +
/// socket)`, were an edge to a service `unix`).
#[test]
fn unix_socket_dials_call_no_service() {
    let f = read(
        r#"package pluggable
import "google.golang.org/grpc"
func SocketDial(ctx context.Context, socket string) (*grpc.ClientConn, error) {
    udsSocket := "unix://" + socket
    return grpc.DialContext(ctx, udsSocket)
}
func Abstract() {
    conn, _ := grpc.NewClient("unix-abstract:components")
    _ = conn
}
func Orders() {
    conn, _ := grpc.NewClient("passthrough:///orders:50051")
    _ = conn
}
"#,
    );
    let callees: Vec<&str> = f.edges.iter().map(|e| e.callee.as_str()).collect();
    assert_eq!(callees, ["orders"]);
    assert!(f.unresolved.is_empty(), "{:?}", f.unresolved);
}
