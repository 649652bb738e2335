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
