// The bound sits in a match guard, `Err(e) if attempt >= 3 => return`, and a
// plain `Err(e)` arm beside it goes round: every error is retried until the
// count runs out. The guard is the loop's limit, not a sorting of failures.
async fn fetch_manifest(client: &reqwest::Client, url: &str) -> Result<Manifest, Error> {
    let mut attempt: u32 = 0;
    loop {
        match client.get(url).send().await {
            Ok(resp) => return Ok(resp.json().await?),
            Err(e) if attempt >= 3 => return Err(e.into()),
            Err(e) => {
                attempt += 1;
                warn!("manifest fetch failed ({attempt}): {e}");
                let jitter = rand::random::<u64>() % 100;
                tokio::time::sleep(Duration::from_millis(100 * 2u64.pow(attempt) + jitter)).await;
            }
        }
    }
}
