// The attempt's result and the bound matched together as a tuple: a
// retryable error with retries left goes round at once, with no wait
// (greptimedb's `handle_with_retry` has this shape).
async fn handle_with_retry(&self, request: Request, max_retries: u32) -> Result<u32> {
    let mut client = self.client()?;
    let mut retries = 0;
    loop {
        let raw = client.handle(request.clone()).await;
        match (raw, retries < max_retries) {
            (Ok(resp), _) => return decode(resp),
            (Err(err), true) => {
                if is_retryable(&err) {
                    retries += 1;
                    warn!("retrying {} times: {:?}", retries, err);
                    continue;
                } else {
                    return Err(err.into());
                }
            }
            (Err(err), false) => {
                error!("giving up after {} retries", retries);
                return Err(err.into());
            }
        }
    }
}
