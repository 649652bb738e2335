// A retry macro that sorts its errors by their message: only a failure
// that says the service is briefly unavailable goes round, every other
// error leaves at once. The count beside the test caps the loop; the test
// of the error is the retry predicate (build-trust/ockam's `retry!` tests
// `err.to_string().contains(..)` beside `retries < 100`; nineteenth pass).
use std::time::Duration;

macro_rules! with_retry {
    ($call:expr) => {{
        let mut retries = 0;
        loop {
            match $call.await {
                Ok(v) => break Ok(v),
                Err(err) => {
                    if err.to_string().contains("temporarily unavailable") && retries < 4 {
                        tokio::time::sleep(Duration::from_millis(100 << retries)).await;
                    } else {
                        break Err(err);
                    }
                    retries += 1;
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
}
