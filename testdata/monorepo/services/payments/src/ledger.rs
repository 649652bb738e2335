//! Client for the ledger service.

use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use reqwest_retry::{policies::ExponentialBackoff, Jitter, RetryTransientMiddleware};
use std::time::Duration;

const LEDGER_URL: &str = "http://ledger:8080";

pub fn client() -> ClientWithMiddleware {
    let policy = ExponentialBackoff::builder()
        .retry_bounds(Duration::from_millis(200), Duration::from_secs(5))
        .jitter(Jitter::Full)
        .build_with_max_retries(2);
    let inner = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .expect("client");
    ClientBuilder::new(inner)
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}

pub async fn record(client: &ClientWithMiddleware, entry: &str) -> reqwest::Result<()> {
    let _ = client
        .put(format!("{LEDGER_URL}/entries"))
        .body(entry.to_string())
        .send()
        .await;
    Ok(())
}
