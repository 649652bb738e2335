// A mining loop: each cycle mines a block, and the loop stops after the
// asked-for number of blocks. The count is of blocks found (the `Ok` arm),
// not of failed attempts: a lost race (`LostBlock`) starts the next cycle,
// as a found block does. Work done again and again, not one call retried.
pub async fn mine(client: &mut NodeClient, config: &MinerConfig, max_blocks: Option<u64>) -> Result<(), MinerError> {
    let mut blocks_found: u64 = 0;
    loop {
        match mining_cycle(client, config).await {
            Err(MinerError::HeightReached(h)) => {
                tracing::warn!("height {h} reached, stopping");
                return Ok(());
            }
            Err(MinerError::LostBlock(h)) => {
                tracing::warn!("height {h} already mined by another node, starting again");
            }
            Err(err) => {
                tracing::error!("mining error: {err:?}");
                tokio::time::sleep(config.wait_timeout()).await;
            }
            Ok(submitted) => {
                if submitted {
                    blocks_found += 1;
                }
                if let Some(max_blocks) = max_blocks {
                    if blocks_found >= max_blocks {
                        return Ok(());
                    }
                }
            }
        }
    }
}
