// The back-off's `None` ends the loop: it decides how many attempts there
// are, whether the chain is on one line or split by rustfmt.
pub async fn connect(&self) -> Result<Stream, Error> {
    let mut backoff = self.backoff();
    loop {
        match self.connect_once().await {
            Ok(stream) => return Ok(stream),
            Err(error) => {
                let Some(delay) = backoff
                    .next()
                else {
                    return Err(error);
                };
                time::sleep(delay).await;
            }
        }
    }
}
