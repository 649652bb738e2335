// A retry loop with no bound at all: it tries forever.
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
