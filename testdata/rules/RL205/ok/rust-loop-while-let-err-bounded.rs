// `while let Err(e) = op().await` with a counter that gives up, or a
// deadline: bounded.
use std::time::{Duration, Instant};

async fn upload(store: &ObjectStore, path: &Path, data: Bytes) -> Result<(), Error> {
    let mut attempt = 0;
    while let Err(e) = store.put(path, data.clone()).await {
        attempt += 1;
        if attempt >= 5 {
            return Err(e);
        }
        tokio::time::sleep(Duration::from_millis(100 * attempt)).await;
    }
    Ok(())
}

async fn notify(client: &Client, deadline: Duration) -> Result<(), Error> {
    let start = Instant::now();
    while let Err(e) = client.notify().await {
        if start.elapsed() > deadline {
            return Err(e);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Ok(())
}
