async fn fetch_config(client: &Client) -> Result<Config, Error> {
    let mut last = None;
    // Five attempts back to back: a struggling server gets them all at once.
    for _attempt in 0..5 {
        match client.get_config().await {
            Ok(c) => return Ok(c),
            Err(e) if e.is_retryable() => {
                last = Some(e);
                continue;
            }
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap())
}
