// Issue 18: a file of a crate's `tests/` folder is an integration test
// (Cargo builds it only for `cargo test`): its retries serve the test,
// not the service (found in tikv's `tests/`, docs/loop-review.md). The
// same loop in `src/` is RL205 (`err/rust-loop-forever.rs`).
use std::time::Duration;

async fn fetch_tasks(client: &Client) -> Vec<Task> {
    loop {
        match client.get_tasks().await {
            Ok(t) => break t,
            Err(e) => {
                log(e);
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
    }
}
