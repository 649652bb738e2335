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
