use std::time::Duration;

/// Shape of qdrant's object-store append: 429 and 5xx go round; a match
/// on the status that computes a value (is this an offset conflict?) is
/// not a test that sends 400, 404 or 412 round.
pub async fn append(client: &reqwest::Client, url: &str, offset: u64) -> Result<u64, String> {
    let mut attempt = 1u32;
    loop {
        let response = match client.put(url).send().await {
            Ok(response) => response,
            Err(_) if attempt < 3 => {
                tokio::time::sleep(Duration::from_millis(100) * attempt).await;
                attempt += 1;
                continue;
            }
            Err(err) => return Err(err.to_string()),
        };
        let status = response.status();
        if (status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS) && attempt < 3 {
            tokio::time::sleep(Duration::from_millis(100) * attempt).await;
            attempt += 1;
            continue;
        }
        if status.is_success() {
            return Ok(offset);
        }
        let conflict = match status {
            reqwest::StatusCode::BAD_REQUEST => true,
            reqwest::StatusCode::PRECONDITION_FAILED => true,
            reqwest::StatusCode::NOT_FOUND => offset > 0,
            _ => false,
        };
        // A match that is the value returned leaves, whatever its arms say.
        return match status {
            reqwest::StatusCode::NOT_FOUND => Err(format!("missing (conflict: {conflict})")),
            _ => Err(format!("append failed with {status}")),
        };
    }
}
