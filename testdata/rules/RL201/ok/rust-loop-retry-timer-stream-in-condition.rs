// `while retry_timer.next().await.is_some()`: the timer is a stream that
// sleeps (doubling, jittered) before it yields each pass, so the attempts
// are spaced in the loop's condition, not in its body.
impl TierClient {
    pub async fn execute(&self, method: Method, meta: &mut RequestMeta) -> Result<Response, Error> {
        let mut retry_timer = RetryTimer::new(self.max_retries, RETRY_UNIT, RETRY_CAP, MAX_JITTER);
        while retry_timer.next().await.is_some() {
            let req = self.new_request(&method, meta).await?;
            let resp = self.doit(req).await?;
            if resp.status().is_success() {
                return Ok(resp);
            }
            let code = parse_code(resp).await?;
            if code == ErrorCode::AccessDenied {
                return Err(Error::other(code));
            }
            warn!(?code, "retrying");
            continue;
        }
        Err(Error::other("no response"))
    }
}
