// A Rust loop that goes round only on a failed connection: a request that
// never reached the server. 429 and 5xx answers and timeouts leave at once,
// so no overload signal is retried.
use std::time::Duration;

const MAX_ATTEMPTS: u32 = 3;
const RETRY_BACKOFF: Duration = Duration::from_millis(200);

pub async fn append(client: &Client, key: &str, data: Bytes) -> Result<Response, Error> {
    let mut attempt = 1;
    loop {
        match client.put(key, data.clone()).await {
            Ok(response) => return Ok(response),
            Err(err) if err.is_connect() && attempt < MAX_ATTEMPTS => {
                tokio::time::sleep(RETRY_BACKOFF * attempt).await;
                attempt += 1;
                continue;
            }
            Err(err) => return Err(Error::s3(err)),
        }
    }
}
