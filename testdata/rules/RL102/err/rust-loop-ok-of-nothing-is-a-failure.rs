// A resolution that worked but found nothing is a failure too: the `Ok`
// arm leaves only under `if let Some(addr) = found.next()`, and otherwise
// goes round with the other errors (risingwavelabs/risingwave
// `try_resolve_dns`). A test of what the answer holds, not a state polled:
// still a retry of every error.
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

pub async fn resolve(host: &str, port: u16) -> Result<SocketAddr, String> {
    let addr = format!("{host}:{port}");
    for attempt in 1..=4 {
        let err = match addr.to_socket_addrs() {
            Ok(mut found) => {
                if let Some(a) = found.next() {
                    return Ok(a);
                } else {
                    format!("{addr} resolved to no address")
                }
            }
            Err(e) => e.to_string(),
        };
        tracing::error!(attempt, err, "failed to resolve");
        tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
    }
    Err(format!("failed to resolve {addr}"))
}
