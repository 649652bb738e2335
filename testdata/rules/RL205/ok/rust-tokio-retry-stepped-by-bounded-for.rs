// A tokio-retry back-off with no `.take(n)`, stepped by hand inside a
// bounded `for` (risingwave `util/addr.rs` `try_resolve_dns`,
// `barrier/rpc.rs` `add_worker`): the loop's range bounds it, 20 passes.
use std::net::ToSocketAddrs;
use std::time::Duration;
use tokio::time::sleep;
use tokio_retry::strategy::ExponentialBackoff;

pub async fn try_resolve_dns(host: &str, port: i32) -> Result<std::net::SocketAddr, String> {
    let addr = format!("{}:{}", host, port);
    let mut backoff = ExponentialBackoff::from_millis(100)
        .max_delay(Duration::from_secs(3))
        .factor(5)
        ;
    const MAX_RETRY: usize = 20;
    for i in 1..=MAX_RETRY {
        match addr.to_socket_addrs() {
            Ok(mut it) => {
                if let Some(a) = it.next() {
                    return Ok(a);
                }
            }
            Err(e) => tracing::warn!(attempt = i, "resolve failed: {e}"),
        }
        let delay = backoff.next().unwrap();
        sleep(delay).await;
    }
    Err(format!("failed to resolve dns: {}", addr))
}
