// The counter counts only the arm where every peer was too slow; a failed round
// (`RoundFailed`) goes round and is never counted, so nothing
// bounds the loop: the count of the other arm is no limit.
const MAX_SLOW_ROUNDS: usize = 7;

pub struct HeaderSync {
    client: SyncClient,
    config: SyncConfig,
}

impl HeaderSync {
    pub async fn sync_headers(&mut self) -> Result<(), SyncError> {
        let mut slow_rounds = 0;
        loop {
            match self.client.fetch_headers(&self.config.peers).await {
                Ok(_) => return Ok(()),
                Err(err @ SyncError::AllPeersTooSlow) => {
                    tracing::warn!("{err}, asking other peers");
                    slow_rounds += 1;
                    if slow_rounds > MAX_SLOW_ROUNDS {
                        return Err(err);
                    }
                    tokio::time::sleep(self.config.pause).await;
                    continue;
                }
                Err(err @ SyncError::RoundFailed) => {
                    tracing::warn!("{err}, fetching again");
                    tokio::time::sleep(self.config.pause).await;
                    continue;
                }
                Err(err) => return Err(err),
            }
        }
    }
}
