use backon::{ExponentialBuilder, Retryable};

async fn fetch_orders(client: &Client) -> Result<Orders, Error> {
    // The delay comes from the server: `adjust` waits what `Retry-After`
    // says instead of the builder's delay.
    (|| client.get_orders())
        .retry(ExponentialBuilder::default())
        .when(|e| e.is_transient())
        .adjust(|e, dur| e.retry_after().or(dur))
        .await
}
