// Statuses sorted by a helper of the file (apache/iggy connectors' retry
// middleware, clickhouse sink): `is_transient_status(status)` is 429 or 5xx,
// its body read at the call; every other 4xx is handed back at once,
// with a limit.
use std::time::Duration;

fn is_transient_status(status: reqwest::StatusCode) -> bool {
    status == reqwest::StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

pub async fn send(client: &reqwest::Client, url: &str, max_retries: u32) -> Result<reqwest::Response, reqwest::Error> {
    let mut attempts = 0u32;
    loop {
        match client.get(url).send().await {
            Ok(response) => {
                let status = response.status();
                if status.is_success() {
                    return Ok(response);
                }
                attempts += 1;
                if is_transient_status(status) && attempts < max_retries {
                    tokio::time::sleep(Duration::from_millis(100 * (1 << attempts) + rand::random::<u64>() % 100)).await;
                    continue;
                }
                return Ok(response);
            }
            Err(e) => {
                attempts += 1;
                if attempts < max_retries {
                    tokio::time::sleep(Duration::from_millis(100 * (1 << attempts) + rand::random::<u64>() % 100)).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
