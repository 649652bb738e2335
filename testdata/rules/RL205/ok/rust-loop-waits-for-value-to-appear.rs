// A wait for something to appear, not a retry: the pass that goes round
// is the one where the call worked and found nothing yet (`Ok(None)`, an
// error named for a value not there or not processed yet), and the loop's
// own words are a wait's (`wait_iters`), not a retry's.
async fn await_account(rpc: &RpcClient, pda: Pubkey) {
    const WAIT_MAX_ITERS: u32 = 5;
    let mut wait_iters: u32 = 0;
    loop {
        match rpc.get_account_option(pda).await {
            Ok(Some(_)) => break,
            Ok(None) => {
                match rpc.get_signatures(pda, 1).await {
                    Ok(sigs) if !sigs.is_empty() => return,
                    Ok(_) => {}
                    Err(e) => tracing::debug!(error = ?e, "could not read the history"),
                }
                wait_iters = wait_iters.saturating_add(1);
                if wait_iters >= WAIT_MAX_ITERS {
                    tracing::warn!("account not visible, stopping");
                    return;
                }
            }
            Err(e) => tracing::debug!(error = ?e, "could not read the account; retrying in 5s"),
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
}

async fn block_task(storage: &Storage, index: usize) -> Result<Block, ExportError> {
    loop {
        match storage.get_block(index).await {
            Ok(b) => return Ok(b),
            Err(ExportError::UnprocessedBlock) => tokio::time::sleep(Duration::from_secs(1)).await,
            Err(e) => return Err(e),
        }
    }
}

async fn manifest(store: &Store, key: &str) -> Result<Manifest, StoreError> {
    loop {
        match store.get(key).await {
            Ok(m) => return Ok(m),
            Err(StoreError::KeyNotFound(_)) => {
                tracing::debug!(key, "manifest not written yet, retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => return Err(e),
        }
    }
}
