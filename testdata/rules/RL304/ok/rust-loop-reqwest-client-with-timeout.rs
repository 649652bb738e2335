// Each try gives up after 2 s (`.timeout(..)` on the client): three tries
// and their waits take at most about 6.4 s.
use std::time::Duration;

pub async fn fetch_rates(base: &str) -> Result<String, reqwest::Error> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()?;
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
