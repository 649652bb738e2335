use std::time::Duration;

async fn backon_forever(client: &Client) -> Result<Orders, Error> {
    (|| client.get_orders())
        .retry(
            backon::ExponentialBuilder::default()
                .with_min_delay(Duration::from_millis(1))
                .with_max_times(usize::MAX),
        )
        .await
}

async fn tokio_retry_forever() -> Result<Conn, Error> {
    let strategy = tokio_retry::strategy::ExponentialBackoff::from_millis(1).take(usize::MAX);
    tokio_retry::Retry::spawn(strategy, open_connection).await
}

fn reqwest_retry_forever() -> reqwest_middleware::ClientWithMiddleware {
    let policy = reqwest_retry::policies::ExponentialBackoff::builder()
        .retry_bounds(Duration::from_millis(1), Duration::from_secs(9999999999999999))
        .build_with_max_retries(u32::MAX);
    reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(reqwest_retry::RetryTransientMiddleware::new_with_policy(policy))
        .build()
}

async fn loop_forever(client: &Client) -> Result<Orders, Error> {
    let mut delay = Duration::from_millis(1);
    for _ in 0..u64::MAX {
        match client.get_orders().await {
            Ok(o) => return Ok(o),
            Err(_) => {
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
        }
    }
    Err(Error::GaveUp)
}
