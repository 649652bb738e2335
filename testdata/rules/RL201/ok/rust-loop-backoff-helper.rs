// The wait is a helper named for what it does, awaited at the top of the
// loop (`exponential_backoff(attempt, base, max, cancel).await`): a delay
// that grows, not none (seen wrong on a repository outside the review set,
// docs/loop-review.md fourth pass).

async fn subscribe(client: &mut BrokerClient, cancel: &CancellationToken) -> Result<Stream, Cancelled> {
    let mut attempt = 0;
    loop {
        exponential_backoff(attempt, 0.1, 3.0, cancel).await;
        attempt += 1;
        match client.subscribe().await {
            Ok(resp) => return Ok(resp),
            Err(e) => {
                tracing::info!("attempt #{attempt}: subscribe failed: {e}");
                continue;
            }
        }
    }
}
