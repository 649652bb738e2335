// The `Err` arm goes round while `attempts < self.retry_limit` and, once
// the count is spent, returns the error through `cfg_if!` (one `return`
// per target): every branch of the macro leaves, so the `if` that
// continues is the loop's bound (nymtech/nym `http-api-client` `send`,
// sixteenth pass).
pub struct Client {
    inner: reqwest::Client,
    retry_limit: usize,
}

impl Client {
    pub async fn send(&self, url: &str) -> Result<reqwest::Response, String> {
        let mut attempts = 0;
        loop {
            let response = self.inner.get(url).send().await;
            match response {
                Ok(resp) => return Ok(resp),
                Err(err) => {
                    if attempts < self.retry_limit {
                        attempts += 1;
                        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                        continue;
                    }

                    cfg_if::cfg_if! {
                        if #[cfg(target_arch = "wasm32")] {
                            return Err(err.to_string());
                        } else {
                            return Err(format!("{url}: {err}"));
                        }
                    }
                }
            }
        }
    }
}
