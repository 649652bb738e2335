// Three quick tries: the waits add up to well under a caller's patience.
use std::time::Duration;

async fn sync_account(api: &Api, id: u64) -> Result<(), Error> {
    let mut delay = Duration::from_millis(100);
    for _ in 0..3 {
        match api.sync(id).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
        }
    }
    Err(Error::GaveUp)
}
