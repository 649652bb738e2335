// Failures sorted by a categorizing function: its answer's variants say
// which failures end the loop (`NonRetryable(e) => return Err(..)`) and
// which go round (`Retryable(e) => errors.push(e)`); that is a retry
// predicate, also when the match sits in the inner loop over providers.
async fn fallback(&self, method: &str, params: &Value) -> Result<Value, Error> {
    let mut errors = Vec::new();
    while errors.len() <= 3 {
        if !errors.is_empty() {
            sleep(Duration::from_millis(100)).await;
        }
        for provider in self.providers.iter() {
            let resp = provider.request(method, params).await;
            if resp.is_err() {
                self.mark_failed(provider).await;
            }
            match categorize(method, resp) {
                Outcome::Ok(v) => return Ok(v),
                Outcome::Retryable(e) | Outcome::RateLimited(e) => errors.push(e),
                Outcome::NonRetryable(e) => return Err(e.into()),
            }
        }
    }
    Err(Error::AllFailed(errors))
}

async fn deliver(client: &Client, msg: &Message) -> Result<(), Error> {
    for attempt in 0..5 {
        let resp = client.post(msg).await;
        if let Err(e) = &resp {
            tracing::debug!("post failed: {e}");
        }
        match sort_outcome(resp) {
            Sorted::Done => return Ok(()),
            Sorted::Again(e) => tracing::warn!(attempt, "delivery failed, retrying: {e}"),
            Sorted::Drop(e) => return Err(e),
        }
        sleep(Duration::from_secs(1 << attempt)).await;
    }
    Err(Error::GaveUp)
}
