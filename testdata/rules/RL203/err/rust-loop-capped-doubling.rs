// A delay that doubles up to a cap is exponential back-off, not a fixed
// delay: RL203 names it as such (and still asks for jitter).
use std::time::Duration;

async fn flush(store: &Store) -> Result<(), Error> {
    let mut delay = Duration::from_secs(1);
    let max = Duration::from_secs(300);
    for _ in 0..10 {
        match store.flush().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(max);
            }
        }
    }
    Err(Error::GaveUp)
}

async fn flush_again(store: &Store) -> Result<(), Error> {
    let mut backoff = Duration::from_millis(100);
    for _ in 0..10 {
        match store.flush().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                tokio::time::sleep(backoff).await;
                backoff = std::cmp::min(backoff * 2, Duration::from_secs(10));
            }
        }
    }
    Err(Error::GaveUp)
}
