use reqwest_middleware::ClientBuilder;
use reqwest_retry::{RetryTransientMiddleware, policies::ExponentialBackoff};

// reqwest has no timeout by default: one hung attempt blocks for ever.
fn catalog_client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder().build_with_max_retries(3);
    ClientBuilder::new(reqwest::Client::new())
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
