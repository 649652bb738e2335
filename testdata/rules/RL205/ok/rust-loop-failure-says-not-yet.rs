// Waits whose failure says "not yet": `Err(Outcome::Pending)` or the
// callee's `Err(RetryError::Continue(e))` going round, an error code
// ending in `Pending` (a device authorization not approved yet), a
// `StatusCode::NOT_FOUND` arm (stored later), and an `Ok(tree) if
// tree.count() == 0` arm (the call worked, the state is not reached).
// hyperlane's attestation and calldata polls, foundry's `Continue`,
// deno's `authorizationPending`.
use reqwest::StatusCode;
use std::time::Duration;
use tokio::time::sleep;

async fn offchain_data(url: &str, max: u32) -> Option<Vec<u8>> {
    let mut pending = 0;
    loop {
        match fetch(url).await {
            Ok(data) => return Some(data),
            Err(Outcome::Pending) => {
                pending += 1;
                sleep(Duration::from_secs(1)).await;
            }
            Err(Outcome::Failed(_)) => return None,
        }
    }
}

async fn run_until_break<T>(mut op: impl FnMut() -> Fut<T>, mut retries: u32) -> Result<T, E> {
    loop {
        match op().await {
            Err(RetryError::Continue(e)) => {
                log(e);
                sleep(Duration::from_secs(2)).await;
            }
            Err(RetryError::Retry(e)) if retries > 0 => {
                retries -= 1;
                sleep(Duration::from_secs(2)).await;
            }
            Err(RetryError::Retry(e) | RetryError::Break(e)) => return Err(e),
            Ok(t) => return Ok(t),
        }
    }
}

async fn exchange(client: &Client, token: &str) -> Result<String, ApiError> {
    loop {
        sleep(Duration::from_secs(5)).await;
        match client.exchange(token).await {
            Ok(res) => return Ok(res.token),
            Err(err) => {
                if err.code == "authorizationPending" {
                    continue;
                } else {
                    return Err(err);
                }
            }
        }
    }
}

async fn stored_calldata(http: &Client, url: &str) -> Result<Body, Error> {
    loop {
        let resp = http.get(url).send().await?;
        match resp.status() {
            s if s.is_success() => return Ok(resp.json().await?),
            StatusCode::NOT_FOUND => sleep(Duration::from_secs(5)).await,
            s => return Err(Error::Status(s)),
        }
    }
}

async fn first_message(hook: &Hook) {
    loop {
        match hook.tree().await {
            Err(err) => {
                tracing::error!(?err, "tree");
                sleep(Duration::from_secs(5)).await;
            }
            Ok(tree) if tree.count() == 0 => sleep(Duration::from_secs(5)).await,
            Ok(_) => break,
        }
    }
}
