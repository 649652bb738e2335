// The loop's bound is a field of `self` that the only constructor sets to
// `1` and nothing assigns again: one attempt, no retry, so no delay is due
// between attempts (shadowsocks/shadowsocks-rust `DnsClientCache`,
// `retry_count: 1`, `6b96a84b`; nineteenth pass).
use std::time::Duration;

pub struct LookupCache {
    client: reqwest::Client,
    timeout: Duration,
    retry_count: usize,
}

impl LookupCache {
    pub fn new(client: reqwest::Client) -> Self {
        Self {
            client,
            timeout: Duration::from_secs(5),
            retry_count: 1,
        }
    }

    pub async fn lookup(&self, name: &str) -> Result<String, reqwest::Error> {
        let mut last_err = None;
        for _ in 0..self.retry_count {
            let resp = match self
                .client
                .get(format!("https://resolver.example/dns-query?name={name}"))
                .timeout(self.timeout)
                .send()
                .await
            {
                Ok(resp) => resp,
                Err(err) => {
                    last_err = Some(err);
                    continue;
                }
            };
            return resp.text().await;
        }
        Err(last_err.unwrap())
    }
}
