// The count is tested at the top of the loop, before the pass's attempt,
// and counted up right after: `tries` 0..=5 each make an attempt and the
// pass that sees 6 leaves before calling, so 6 attempts (not 7).
async fn next_template(client: &reqwest::Client, url: &str) -> Result<Template, Error> {
    let mut tries = 0;
    loop {
        if tries >= 6 {
            return Err(Error::GaveUp(tries));
        }
        if tries > 0 {
            let jitter = rand::random::<u64>() % 100;
            tokio::time::sleep(Duration::from_millis(tries * 250 + jitter)).await;
        }
        tries += 1;
        match client.get(url).send().await {
            Ok(resp) => return Ok(resp.json().await?),
            Err(e) if e.is_timeout() || e.is_connect() => warn!("template fetch failed: {e}"),
            Err(e) => return Err(e.into()),
        }
    }
}
