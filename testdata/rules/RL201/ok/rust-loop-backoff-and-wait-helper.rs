// A wait in a helper named for it (infinyon/fluvio consumer retry.rs
// `handle_reconnection_loop`): `backoff_and_wait(&mut backoff).await`
// sleeps the back-off's next delay before the loop goes round.
async fn handle_reconnection_loop(inner: &Inner, mut backoff: ExponentialBackoff) -> Result<Stream, ErrorCode> {
    let mut attempts = 0u32;
    loop {
        match inner.strategy.reconnect(inner, backoff.clone()).await {
            Ok(new_stream) => return Ok(new_stream),
            Err(e) => {
                backoff_and_wait(&mut backoff).await;
                attempts += 1;
                tracing::warn!("could not connect to stream: {e}, retrying");
                match inner.retry_mode {
                    RetryMode::TryUntil(max) if attempts >= max => {
                        return Err(ErrorCode::MaxRetryReached);
                    }
                    RetryMode::Disabled => return Err(ErrorCode::Other(format!("{e}"))),
                    _ => {
                        continue; // Retry
                    }
                }
            }
        }
    }
}
