use std::time::Duration;

/// Goes round on every answer that is not a success: a 404 for an
/// unknown account is asked again like a 503.
pub async fn balance(client: &reqwest::Client, account: &str) -> Result<String, reqwest::Error> {
    let url = format!("http://ledger:8080/balances/{account}");
    let mut attempt = 0;
    loop {
        attempt += 1;
        match client.get(&url).timeout(Duration::from_secs(2)).send().await {
            Ok(resp) if resp.status().is_success() => return resp.text().await,
            Ok(resp) => tracing::warn!(status = %resp.status(), "ledger refused"),
            Err(e) if attempt >= 5 => return Err(e),
            Err(e) => tracing::warn!(error = %e, "ledger unreachable"),
        }
        tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
    }
}
