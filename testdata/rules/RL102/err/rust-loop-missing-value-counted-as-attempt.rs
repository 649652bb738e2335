// Still a retry: the pass that goes round found nothing (`Ok(None)`), but
// the loop counts it as an attempt (its own words are a retry's), and
// every error of the remote call goes round as well.
async fn fetch_config(client: &Client) -> Result<Config, Error> {
    let mut attempts: u32 = 0;
    loop {
        match client.get_config().await {
            Ok(Some(c)) => return Ok(c),
            Ok(None) => {
                attempts += 1;
                if attempts >= 5 {
                    return Err(Error::Empty);
                }
            }
            Err(e) => tracing::warn!("config fetch failed: {e}"),
        }
        sleep(Duration::from_secs(1)).await;
    }
}
