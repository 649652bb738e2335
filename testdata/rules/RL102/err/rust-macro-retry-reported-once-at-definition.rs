// A retry macro whose loop takes nothing from its call sites (the attempts
// and the delay are written in the macro): every expansion retries every
// error the same way. The fault is the macro's, and it is reported once, at
// its loop, not at each of the calls below (build-trust/ockam's `retry!`,
// called 95 times, made 191 findings at stop 47; nineteenth pass).
use std::time::Duration;

macro_rules! with_retry {
    ($call:expr) => {{
        let mut attempt = 0;
        loop {
            attempt += 1;
            match $call.await {
                Ok(v) => break Ok(v),
                Err(e) => {
                    if attempt >= 3 {
                        break Err(e);
                    }
                    tracing::warn!(error = %e, "ledger call failed");
                    tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
                }
            }
        }
    }};
}

pub struct Ledger {
    client: reqwest::Client,
}

impl Ledger {
    async fn get(&self, path: &str) -> Result<String, reqwest::Error> {
        self.client.get(format!("http://ledger:8080/{path}")).send().await?.text().await
    }

    pub async fn balance(&self) -> Result<String, reqwest::Error> {
        with_retry!(self.get("balance"))
    }

    pub async fn history(&self) -> Result<String, reqwest::Error> {
        with_retry!(self.get("history"))
    }

    pub async fn limits(&self) -> Result<String, reqwest::Error> {
        with_retry!(self.get("limits"))
    }
}
