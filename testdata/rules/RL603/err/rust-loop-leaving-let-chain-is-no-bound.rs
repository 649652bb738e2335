// A leaving test `attempt > 1 && let Ok(meta) = .. && meta.size == n`
// returns on success (a lost acknowledgement proved by the object's size):
// it is no bound on the attempts, which `attempt < MAX_ATTEMPTS` in the
// going-round tests sets (qdrant/qdrant's S3 append). 429 and 5xx go round
// with no retry budget.
use std::time::Duration;

const MAX_ATTEMPTS: u32 = 3;
const RETRY_BACKOFF: Duration = Duration::from_millis(200);

pub async fn append(client: &Client, store: &Store, key: &str, offset: u64, data: Bytes) -> Result<u64, Error> {
    let mut attempt = 1;
    loop {
        let response = match client.put(key, offset, data.clone()).await {
            Ok(response) => response,
            Err(_) if attempt < MAX_ATTEMPTS => {
                tokio::time::sleep(RETRY_BACKOFF * attempt).await;
                attempt += 1;
                continue;
            }
            Err(err) => return Err(Error::s3(err)),
        };
        let status = response.status();
        if (status.is_server_error() || status == http::StatusCode::TOO_MANY_REQUESTS)
            && attempt < MAX_ATTEMPTS
        {
            tokio::time::sleep(RETRY_BACKOFF * attempt).await;
            attempt += 1;
            continue;
        }
        if status.is_success() {
            return Ok(offset + data.len() as u64);
        }
        if status == http::StatusCode::PRECONDITION_FAILED {
            if attempt > 1
                && let Ok(meta) = store.head(key).await
                && meta.size == offset + data.len() as u64
            {
                return Ok(meta.size);
            }
            return Err(Error::Conflict);
        }
        return Err(Error::Status(status));
    }
}
