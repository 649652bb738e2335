use reqwest_middleware::ClientBuilder;
use reqwest_retry::{RetryTransientMiddleware, policies::ExponentialBackoff};

/// The payments client: POST /charges goes through it too.
fn payments_client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder().build_with_max_retries(2);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("client");
    ClientBuilder::new(client)
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
