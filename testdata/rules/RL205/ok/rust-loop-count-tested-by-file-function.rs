// The count is stepped through a local and tested by a function of the
// file (`retries_exhausted(retries)`, whose body compares it to the
// limit): the loop stops after `MAX_LOAD_RETRIES + 1` failures, 5 attempts.
const MAX_LOAD_RETRIES: usize = 4;

async fn load_settings(store: Arc<Store>) -> Result<()> {
    let mut retries = 0;
    while let Err(e) = store.load_settings().await {
        if e.is_permanent() {
            return Err(e);
        }
        let next_retries = retries + 1;
        warn!(retries = next_retries, error = ?e, "loading settings failed, retrying");
        retries = next_retries;
        if retries_exhausted(retries) {
            return Err(e);
        }
        tokio::time::sleep(Duration::from_millis(500 + rand::random::<u64>() % 500)).await;
    }
    Ok(())
}

fn retries_exhausted(retries: usize) -> bool {
    retries > MAX_LOAD_RETRIES
}
