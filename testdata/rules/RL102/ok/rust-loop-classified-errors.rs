// Retry loops that sort errors: only some kinds or statuses go round again.
use std::time::Duration;

async fn get(client: &Client) -> Result<Resp, Error> {
    for _ in 0..3 {
        match client.get().await {
            Ok(r) => return Ok(r),
            Err(Error::Unavailable(_)) | Err(Error::Timeout) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::GaveUp)
}

async fn put(client: &Client) -> Result<Resp, Error> {
    for _ in 0..3 {
        match client.put().await {
            Ok(r) => return Ok(r),
            Err(e) => {
                match e.code() {
                    Code::Unavailable | Code::ResourceExhausted => {}
                    _ => return Err(e),
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    Err(Error::GaveUp)
}

async fn post(client: &Client) -> Result<Resp, Error> {
    for _ in 0..3 {
        let resp = client.post().await?;
        match resp.status().as_u16() {
            200 => return Ok(resp),
            503 | 429 => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => return Err(Error::Status),
        }
    }
    Err(Error::GaveUp)
}
