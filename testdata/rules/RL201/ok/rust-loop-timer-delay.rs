// A retry loop that waits on a timer rather than `sleep`: it has a delay.
use std::time::{Duration, Instant};

async fn load_config(client: &Client) -> Config {
    loop {
        match client.get_config().await {
            Ok(c) => return c,
            Err(e) => {
                log(e);
                let _ = TIMER.delay(Instant::now() + Duration::from_secs(1)).await;
            }
        }
    }
}
