// `if recoverable && attempt < MAX { attempt = attempt.saturating_add(1);
// ..; continue }` and then a way out: the loop stops once the count reaches
// the limit (or the error is not recoverable).
const MAX_SYNC_RETRIES: u32 = 3;

async fn sync_all(&self, shards: Vec<ShardId>) -> Result<u64> {
    let mut failed = 0_u64;
    for shard in shards {
        let mut attempt = 0_u32;
        loop {
            match self.peer.sync_shard(shard).await {
                Ok(()) => break,
                Err(err) => {
                    if err.is_recoverable() && attempt < MAX_SYNC_RETRIES {
                        attempt = attempt.saturating_add(1);
                        tokio::time::sleep(self.retry_delay(attempt)).await;
                        continue;
                    }
                    failed = failed.saturating_add(1);
                    break;
                }
            }
        }
    }
    Ok(failed)
}
