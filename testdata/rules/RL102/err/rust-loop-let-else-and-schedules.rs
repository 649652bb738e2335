// Retry loops written with `let Err(e) = op().await else { return }` (the
// `else` is success, what follows the failure) and over a schedule of
// delays or timeouts (each item is one attempt): every error goes round.
use std::time::Duration;

async fn truncate(client: &IngesterClient, request: TruncateRequest) {
    for num_attempts in 1..=5 {
        let Err(error) = client.truncate_shards(request.clone()).await else {
            return;
        };
        warn!("failed to truncate shards: {error}");
        tokio::time::sleep(Duration::from_millis(500 * num_attempts)).await;
    }
}

async fn publish(ctx: &Context, splits: &[Split]) -> Result<(), Error> {
    for retry_delay in [Some(Duration::from_secs(1)), Some(Duration::from_secs(3)), None] {
        let Err(error) = ctx.metastore.publish(splits).await else {
            return Ok(());
        };
        match retry_delay {
            Some(delay) => tokio::time::sleep(delay).await,
            None => return Err(error.into()),
        }
    }
    Ok(())
}

async fn get_slice(storage: &Storage, path: &Path, policy: &TimeoutPolicy) -> Result<Bytes, Error> {
    for (attempt_id, timeout_duration) in policy.timeouts().enumerate() {
        match tokio::time::timeout(timeout_duration, storage.get_slice(path)).await {
            Ok(Ok(bytes)) => return Ok(bytes),
            Ok(Err(e)) => warn!("attempt {attempt_id} failed: {e}"),
            Err(_elapsed) => continue,
        }
    }
    Err(Error::Timeout)
}

// `(0..3).with_position()`: three attempts, the last one gives up; every
// error goes round until then.
async fn connect_redis(client: &mut RedisClient) -> anyhow::Result<()> {
    for attempt in (0..3).with_position() {
        match client.try_connect().await {
            Ok(()) => break,
            Err(e) => {
                if matches!(attempt, Position::Last(_)) {
                    bail!("failed to connect to Redis after {} attempts: {e}", attempt.into_inner());
                }
                tokio::time::sleep(Duration::from_millis(1000)).await;
            }
        }
    }
    Ok(())
}
