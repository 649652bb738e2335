// The test harness crate of a workspace (`core/integration`): it starts
// the server under test and waits for it to answer; test code, not the
// service (apache/iggy).
use std::time::Duration;

pub async fn wait_until_started(client: &Client) {
    loop {
        match client.ping().await {
            Ok(()) => break,
            Err(e) => {
                eprintln!("server not up yet: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
