use reqwest_middleware::ClientBuilder;
use reqwest_retry::{policies::ExponentialBackoff, RetryTransientMiddleware};
use std::time::Duration;

// The policy stops retrying after 30 s in all.
fn client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder()
        .build_with_total_retry_duration(Duration::from_secs(30));
    ClientBuilder::new(reqwest::Client::new())
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
