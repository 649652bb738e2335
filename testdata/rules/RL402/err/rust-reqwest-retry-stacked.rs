use reqwest_middleware::ClientBuilder;
use reqwest_retry::{Jitter, RetryTransientMiddleware, policies::ExponentialBackoff};

fn policy() -> ExponentialBackoff {
    ExponentialBackoff::builder()
        .jitter(Jitter::Full)
        .build_with_max_retries(1)
}

fn clients(raw: reqwest::Client) -> reqwest_middleware::ClientWithMiddleware {
    // The token client retries, and so does the client that calls it.
    let token_client = ClientBuilder::new(raw.clone())
        .with(RetryTransientMiddleware::new_with_policy(policy()))
        .build();
    ClientBuilder::new(raw)
        .with(RetryTransientMiddleware::new_with_policy(policy()))
        .with(TokenMiddleware::new(token_client))
        .build()
}
