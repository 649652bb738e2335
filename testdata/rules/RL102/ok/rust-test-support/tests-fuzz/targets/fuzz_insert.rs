// A fuzz-test crate (`tests-fuzz`): drives the service under test, it is
// not the service.
use std::time::Duration;

async fn execute_insert_with_retry(client: &Client, sql: &str) -> anyhow::Result<()> {
    let mut delay = Duration::from_millis(100);
    for _ in 0..5 {
        match client.execute(sql).await {
            Ok(_) => return Ok(()),
            Err(_) => {
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
        }
    }
    anyhow::bail!("insert failed")
}
