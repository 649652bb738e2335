async fn fetch_config(client: &Client) -> Result<Config, Error> {
    let mut delay = Duration::from_millis(100);
    for _attempt in 0..3 {
        match client.get_config().await {
            Ok(c) => return Ok(c),
            Err(e) if e.is_retryable() => {
                tokio::time::sleep(delay + Duration::from_millis(fastrand::u64(0..100))).await;
                delay *= 2;
            }
            Err(e) => return Err(e),
        }
    }
    client.get_config().await
}
