// The let-else retry and the schedule of delays, each sorting its errors:
// only some go round, the rest leave at once.
use std::time::Duration;

async fn publish(ctx: &Context, splits: &[Split]) -> Result<(), Error> {
    for retry_delay in [Some(Duration::from_secs(1)), Some(Duration::from_secs(3)), None] {
        let Err(error) = ctx.metastore.publish(splits).await else {
            return Ok(());
        };
        let retryable = matches!(error, MetastoreError::Unavailable { .. });
        match retry_delay {
            Some(delay) if retryable => tokio::time::sleep(delay).await,
            _ => return Err(error.into()),
        }
    }
    Ok(())
}

// Items, not attempts: each pass uploads another part.
async fn upload_parts(store: &Store, parts: Vec<Part>) -> Result<(), Error> {
    for part in parts {
        if let Err(e) = store.put_part(&part).await {
            warn!("part failed: {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
    Ok(())
}

// Only a timeout goes round: the operation's own result, an error too,
// leaves with `return result`.
async fn get_slice(storage: &Storage, path: &Path, policy: &TimeoutPolicy) -> Result<Bytes, Error> {
    for (attempt_id, timeout_duration) in policy.timeouts().enumerate() {
        match tokio::time::timeout(timeout_duration, storage.get_slice(path)).await {
            Ok(result) => {
                metrics::record_attempts(attempt_id);
                return result;
            }
            Err(_elapsed) => continue,
        }
    }
    Err(Error::Timeout)
}

// Only `429` goes round; transport errors leave through `?`.
async fn ingest(client: &Client, batch: Bytes) -> Result<Response, Error> {
    loop {
        let response = client.post("/ingest", batch.clone()).await?;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            tokio::time::sleep(Duration::from_millis(500)).await;
        } else {
            break Ok(response);
        }
    }
}
