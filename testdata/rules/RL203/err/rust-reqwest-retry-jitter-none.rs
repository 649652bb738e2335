use reqwest_middleware::ClientBuilder;
use reqwest_retry::{Jitter, RetryTransientMiddleware, policies::ExponentialBackoff};

fn client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder()
        .jitter(Jitter::None)
        .retry_bounds(Duration::from_millis(200), Duration::from_secs(10))
        .build_with_max_retries(3);
    ClientBuilder::new(reqwest::Client::new())
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
