use reqwest::header::RETRY_AFTER;
use std::time::Duration;

// On a 429 the loop sleeps exactly the server's Retry-After.
async fn fetch(client: &Client, url: &str) -> Result<Response, RateLimited> {
    let mut attempt = 0;
    loop {
        match client.send(url).await {
            Ok(resp) => return Ok(resp),
            Err(e) if attempt >= 4 => return Err(e),
            Err(e) => {
                attempt += 1;
                let secs = e
                    .headers()
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(1);
                tokio::time::sleep(Duration::from_secs(secs)).await;
            }
        }
    }
}
