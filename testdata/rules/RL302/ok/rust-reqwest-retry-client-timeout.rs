use reqwest_middleware::ClientBuilder;
use reqwest_retry::{RetryTransientMiddleware, policies::ExponentialBackoff};

fn catalog_client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder().build_with_max_retries(3);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .expect("client");
    ClientBuilder::new(client)
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
