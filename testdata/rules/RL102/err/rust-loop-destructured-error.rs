// Destructuring the error (`Err((range, _))`) picks no kind: every error is
// still retried.
use std::time::Duration;

async fn prepare_all(client: &Client) {
    loop {
        match client.prepare_all().await {
            Ok(()) => break,
            Err((range, _)) => {
                client.reload(range);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
