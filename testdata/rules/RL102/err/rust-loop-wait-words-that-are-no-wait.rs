// Still retries: the words of a wait elsewhere. A function named for
// an action on an order (`confirm_order`: `confirm` is not its last
// word), an identifier holding "pending" (`pending_swap`), a match
// computing a value from a `404` (not going round on it), and a guard
// on the answer's status all leave the loop a retry of a remote call.
use reqwest::StatusCode;
use std::time::Duration;
use tokio::time::sleep;

async fn confirm_order(client: &Client, id: u64) -> Result<Receipt, Error> {
    loop {
        match client.post_confirm(id).await {
            Ok(r) => return Ok(r),
            Err(e) => {
                tracing::warn!("confirm failed, retrying: {e}");
                sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

async fn close_swap(rpc: &Rpc, pending_swap: &Key) -> Result<(), Error> {
    for _ in 0..20 {
        match rpc.close(pending_swap).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                if pending_swap.is_old() {
                    tracing::debug!("old swap, retrying: {e}");
                }
                sleep(Duration::from_secs(2)).await;
            }
        }
    }
    Err(Error::Exhausted)
}

async fn append(client: &Client, offset: u64) -> Result<u64, Error> {
    loop {
        let resp = match client.put(offset).await {
            Ok(r) => r,
            Err(_) => {
                sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let stale = match resp.status() {
            StatusCode::NOT_FOUND => offset > 0,
            _ => false,
        };
        if stale {
            return Err(Error::Stale);
        }
        return Ok(resp.len());
    }
}
