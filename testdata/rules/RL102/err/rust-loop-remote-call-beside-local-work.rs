// The loop writes a local file, but what it attempts again is a request to
// a service: that leaves the process, so the loop is a retry (every error
// goes round). Local work beside a remote call does not make it local.
use std::time::Duration;

pub async fn upload_report(client: &reqwest::Client, path: &std::path::Path) -> Result<(), Error> {
    let body = tokio::fs::read(path).await?;
    for attempt in 0..4 {
        let _ = tokio::fs::write("/tmp/last-upload", attempt.to_string()).await;
        match client.post("http://reports:8080/upload").body(body.clone()).send().await {
            Ok(_) => return Ok(()),
            Err(e) => {
                log::warn!("upload failed: {e}");
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    }
    Err(Error::GaveUp)
}

// A word in a URL names no socket, and a parse of what was fetched in the
// same call repeats the fetch: both loops retry a remote call.
pub async fn server_clock(client: &reqwest::Client) -> Result<u64, Error> {
    for _ in 0..3 {
        match client.get("http://clock:8080/unix_time").send().await {
            Ok(r) => return Ok(r.json::<u64>().await?),
            Err(e) => {
                log::warn!("clock failed: {e}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    Err(Error::GaveUp)
}

pub async fn fetch_config(client: &reqwest::Client) -> Result<Config, Error> {
    loop {
        match serde_json::from_slice::<Config>(&client.get("http://config:8080/").send().await?.bytes().await?) {
            Ok(c) => return Ok(c),
            Err(e) => {
                log::warn!("config not readable yet: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}
