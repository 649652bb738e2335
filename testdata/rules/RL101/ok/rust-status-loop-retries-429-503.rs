use reqwest::StatusCode;
use std::time::Duration;

/// Goes round on 429 and 503 only; any other answer is handed back.
pub async fn balance(client: &reqwest::Client, account: &str) -> Result<reqwest::Response, reqwest::Error> {
    let url = format!("http://ledger:8080/balances/{account}");
    for attempt in 1..=5u64 {
        let resp = client.get(&url).timeout(Duration::from_secs(2)).send().await?;
        if resp.status() == StatusCode::TOO_MANY_REQUESTS || resp.status() == StatusCode::SERVICE_UNAVAILABLE {
            tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
            continue;
        }
        return Ok(resp);
    }
    client.get(&url).timeout(Duration::from_secs(2)).send().await
}
