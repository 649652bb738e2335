// `attempts += 1` comes before the match, and the guard `if attempts > max`
// leaves: the loop is bounded by the guard (at most `max` attempts).
const MAX_ATTEMPTS: u32 = 4;

async fn register_node(client: &reqwest::Client, url: &str) -> Result<(), Error> {
    let mut attempts = 0;
    loop {
        attempts += 1;
        match client.post(url).send().await {
            Ok(_) => return Ok(()),
            Err(e) if e.is_timeout() || e.is_connect() => {
                if attempts > MAX_ATTEMPTS {
                    return Err(e.into());
                }
                let jitter = rand::random::<u64>() % 250;
                tokio::time::sleep(Duration::from_millis(250 * u64::from(attempts) + jitter)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}
