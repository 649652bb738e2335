use reqwest_middleware::ClientBuilder;
use reqwest_retry::{policies::ExponentialBackoff, RetryTransientMiddleware};
use std::time::Duration;

// A URL before the setter on its line is not a comment.
fn other() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder().build_with_max_retries(3);
    let _u = "http://payments:8080"; let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    ClientBuilder::new(http)
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
