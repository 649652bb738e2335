use std::time::Duration;

/// A retry macro bounded by a match guard on its parameter
/// (`Err(e) if attempt >= $n`): the call's `5` is the limit, not no limit.
macro_rules! with_retries {
    ($client:expr, $url:expr, $n:expr) => {{
        let mut attempt = 0;
        loop {
            attempt += 1;
            match $client.get($url).timeout(Duration::from_secs(2)).send().await {
                Ok(resp) if resp.status().is_success() => break Ok(resp),
                Ok(resp) => tracing::warn!(status = %resp.status(), "refused"),
                Err(e) if attempt >= $n => break Err(e),
                Err(e) => tracing::warn!(error = %e, "unreachable"),
            }
            tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
        }
    }};
}

pub async fn balance(client: &reqwest::Client, account: &str) -> Result<reqwest::Response, reqwest::Error> {
    let url = format!("http://ledger:8080/balances/{account}");
    with_retries!(client, &url, 5)
}
