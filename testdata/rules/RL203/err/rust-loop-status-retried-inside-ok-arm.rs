// A status judged inside the `Ok` arm (`if is_transient(status) &&
// attempts < 3 { sleep; continue }`): the `if` inherits the arm's
// context, it does not sort success from failure, so its `continue` is a
// failure going round, not success (apache/iggy's HTTP retry middleware).
// Every transient status and every error waits a fixed 1 s.
use std::time::Duration;

fn is_transient(status: reqwest::StatusCode) -> bool {
    status.as_u16() == 429 || status.is_server_error()
}

pub async fn send(client: &reqwest::Client, url: &str) -> Result<reqwest::Response, reqwest::Error> {
    let mut attempts = 0u32;
    loop {
        match client.get(url).send().await {
            Ok(response) => {
                let status = response.status();
                if status.is_success() {
                    return Ok(response);
                }
                attempts += 1;
                if is_transient(status) && attempts < 3 {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                return Ok(response);
            }
            Err(e) => {
                attempts += 1;
                if attempts < 3 {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
