// The `?` is on the awaited call of a client named for retries: that is
// the operation, not a policy running out. Every failure of `lookup`
// goes round for ever.
use std::time::Duration;

pub async fn resolve(retry_client: &Client, name: &str) -> Result<Addr, Error> {
    loop {
        let answer = retry_client.lookup(name).await?;
        match answer.check() {
            Ok(addr) => return Ok(addr),
            Err(e) => {
                log::warn!("lookup of {name} not usable: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}
