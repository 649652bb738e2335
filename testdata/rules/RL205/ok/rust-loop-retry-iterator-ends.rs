// A retry policy's iterator bounds the loop: each failure asks it for the
// next delay, and the loop hands the error back once it answers `None`
// (restatedev/restate's `RetryPolicy::retry`, `retry_if`, the discovery
// client, `get_or_insert`'s back-off). A policy object that counts
// (`retries.has_next()`) bounds it the same way. How many attempts the
// policy allows is the policy's to say: bounded, count not shown.
use std::time::Duration;

pub async fn retry<T, E, F, Fut>(policy: RetryPolicy, mut operation: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut retry_iter = policy.into_iter();
    loop {
        match (operation().await, retry_iter.next()) {
            (Ok(res), _) => return Ok(res),
            (Err(e), None) => return Err(e),
            (Err(_), Some(pause)) => tokio::time::sleep(pause).await,
        }
    }
}

pub async fn retry_if<T, E: Retryable, F, Fut>(policy: RetryPolicy, mut operation: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut retry_iter = policy.iter();
    loop {
        match operation().await {
            Ok(res) => return Ok(res),
            Err(err) => {
                if err.retryable() {
                    if let Some(pause) = retry_iter.next() {
                        tokio::time::sleep(pause).await;
                    } else {
                        return Err(err);
                    }
                } else {
                    return Err(err);
                }
            }
        }
    }
}

pub async fn ensure_exists(admin: &Admin, id: u64) -> Result<(), Error> {
    let mut retries = RetryPolicy::exponential(Duration::from_millis(100), 2.0, Some(3)).into_iter();
    while let Err(e) = admin.ensure_exists(id).await {
        if let Some(pause) = retries.next() {
            tokio::time::sleep(pause).await;
        } else {
            return Err(e.into());
        }
    }
    Ok(())
}

pub async fn insert(store: &Store, key: &str, policy: Option<RetryPolicy>) -> Result<(), Error> {
    let mut backoff_policy = policy.as_ref().map(|p| p.iter());
    loop {
        match store.put(key).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                if let Some(pause) = backoff_policy.as_mut().and_then(|p| p.next()) {
                    tokio::time::sleep(pause).await;
                } else {
                    return Err(e);
                }
            }
        }
    }
}

pub async fn call(client: &Client, attempts: Option<u8>) -> Result<Reply, Error> {
    let mut retries = Retries::new(attempts);
    loop {
        retries.advance();
        match client.call_rpc().await {
            Ok(reply) => return Ok(reply),
            Err(err) => {
                if retries.has_next() {
                    tracing::trace!(%err, "will retry");
                } else {
                    return Err(err);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

pub async fn discover(client: &Client, mut retry_iter: RetryIter<'_>) -> Result<Manifest, Error> {
    loop {
        let e = match client.discover().await {
            Ok(manifest) => return Ok(manifest),
            Err(e) => e,
        };
        if e.is_retryable()
            && let Some(next) = retry_iter.next()
        {
            tokio::time::sleep(next).await;
            continue;
        }
        return Err(e);
    }
}
