// The bound is one operand of a let-chain in the `if` that goes round
// (`attempt < 3 && let Some(..) = .. && e.is_transient()`, followed by a
// return): each operand is a way out, so `attempt < 3` bounds the loop
// even though the chain nests to the left.
use std::time::Duration;

pub async fn fetch(client: &Client, backend: &Backend) -> Result<Reply, Error> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match client.fetch().await {
            Ok(reply) => return Ok(reply),
            Err(e) => {
                if attempt < 3
                    && let Backend::Remote(remote) = backend
                    && e.is_transient()
                {
                    tracing::warn!(?e, region = %remote.region, "retrying");
                    tokio::time::sleep(Duration::from_millis(100 * 2u64.pow(attempt))).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
