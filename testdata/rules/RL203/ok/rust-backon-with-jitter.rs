use backon::{ExponentialBuilder, Retryable};

async fn fetch_orders(client: &Client) -> Result<Orders, Error> {
    (|| client.get_orders())
        .retry(ExponentialBuilder::default().with_jitter())
        .when(|e| e.is_transient())
        .await
}
