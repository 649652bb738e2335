// Retry loops whose failure is the loop's condition or a `false` result,
// each waiting a fixed time between attempts.

use std::time::Duration;

const MAX_PULL_RETRIES: u64 = 100;

// The loop runs while the call fails; its `Ok` ends it. Fatal errors leave,
// the rest go round after a fixed wait, ten times at most (without the
// count it would also be RL205: `RL205/err/rust-loop-while-let-err-forever.rs`).
async fn notify_blocking(client: &Client) -> Result<(), Error> {
    let mut attempts = 0;
    while let Err(e) = client.notify().await {
        match e {
            NotifyError::Fatal(_) => return Err(Error::Notify(e)),
            _ => tracing::warn!("notification failed, retrying: {e}"),
        }
        attempts += 1;
        if attempts >= 10 {
            return Err(Error::Notify(e));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(())
}

// A `bool` result: `true` is success, `false` goes round.
async fn pull_until_success(peers: &Peers) {
    for i in 0..MAX_PULL_RETRIES {
        if pull_timeline(peers).await {
            return;
        }
        tracing::error!("failed to pull the timeline, retrying {}/{}", i + 1, MAX_PULL_RETRIES);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
