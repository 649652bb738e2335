// The shape of astral-sh/uv's `BaseClientBuilder::apply_middleware`
// (crates/uv-client/src/base_client.rs), written anew: the retry
// middleware is on the client, and again on the base client that the
// auth middleware inside it uses. Each layer must be named apart.
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use reqwest_retry::{RetryTransientMiddleware, policies::ExponentialBackoff};

struct Builder {
    retries: u32,
}

impl Builder {
    fn retry_policy(&self) -> ExponentialBackoff {
        ExponentialBackoff::builder().build_with_max_retries(1)
    }

    fn apply_middleware(&self, client: reqwest::Client) -> ClientWithMiddleware {
        // A base client for the auth middleware's own requests.
        let base_client = {
            let mut client = ClientBuilder::new(client.clone());
            if self.retries > 0 {
                let retry_strategy =
                    RetryTransientMiddleware::new_with_policy(self.retry_policy());
                client = client.with(retry_strategy);
            }
            client.build()
        };

        let mut client = ClientBuilder::new(client);
        if self.retries > 0 {
            let retry_strategy = RetryTransientMiddleware::new_with_policy(self.retry_policy());
            client = client.with(retry_strategy);
        }
        client = client.with(AuthMiddleware::new().with_base_client(base_client));
        client.build()
    }
}
