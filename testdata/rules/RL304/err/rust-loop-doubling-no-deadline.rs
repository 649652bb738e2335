// Ten tries, waiting 3 s and doubling each time, with nothing that stops
// the loop once the caller has given up: 25 minutes of waits alone.
use std::time::Duration;

async fn sync_account(api: &Api, id: u64) -> Result<(), Error> {
    let mut delay = Duration::from_secs(3);
    for _ in 0..10 {
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
