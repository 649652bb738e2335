use std::time::Duration;

async fn wait_for_db(url: &str) -> Result<Pool, sqlx::Error> {
    let mut attempt = 0;
    loop {
        match Pool::connect(url).await {
            Ok(pool) => return Ok(pool),
            Err(e) if attempt >= 4 => return Err(e),
            Err(_) => {
                attempt += 1;
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    }
}
