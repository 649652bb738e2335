// The cargo-xtask crate: build and dev commands, not the service.
use std::time::Duration;

async fn wait_for_health(client: &Client) -> anyhow::Result<()> {
    for i in 0..100 {
        match client.health().await {
            Ok(_) => return Ok(()),
            Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
        }
    }
    anyhow::bail!("not responding")
}

fn main() {}
