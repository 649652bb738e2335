use backon::{ExponentialBuilder, Retryable};

async fn fetch_orders(client: &Client) -> Result<Orders, Error> {
    // backon's default: 1s, 2s, 4s for every client at once (no jitter).
    (|| client.get_orders())
        .retry(ExponentialBuilder::default())
        .when(|e| e.is_transient())
        .await
}
