// The failure kept from the last attempt is sorted before the next one:
// a permanent error returns, rate limits and timeouts go round.

use std::time::Duration;

const MAX_ATTEMPTS: usize = 3;

async fn invoke_with_retry(client: &Client, request: Request) -> Result<Response, Error> {
    let mut error = match client.invoke(request.clone()).await {
        Ok(r) => return Ok(r),
        Err(e) => e,
    };
    for attempt in 1..MAX_ATTEMPTS {
        let delay = match &error {
            InvokeError::RateLimited(after) => after.unwrap_or(Duration::from_millis(100 * attempt as u64)),
            InvokeError::Timeout(_) => Duration::from_millis(100 * attempt as u64),
            InvokeError::Permanent(_) => return Err(error.into()),
        };
        tokio::time::sleep(delay + jitter()).await;
        match client.invoke(request.clone()).await {
            Ok(r) => return Ok(r),
            Err(e) => error = e,
        }
    }
    Err(error.into())
}
