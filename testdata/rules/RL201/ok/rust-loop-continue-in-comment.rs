// Every pass of this loop leaves (success, or an error returned): the
// `continue` is in comments only, code kept from a port. No failure goes
// round, so the loop is no retry, whatever its condition says.
impl Client {
    pub async fn send(&self, meta: &mut RequestMeta) -> Result<Response, Error> {
        let mut retry_count = self.max_retries;
        while retry_count > 0 {
            retry_count -= 1;
            let resp = self.http.execute(self.build(meta)?).await?;
            if resp.status().is_success() {
                return Ok(resp);
            }
            let code = parse_code(resp).await?;
            return match code {
                ErrorCode::AccessDenied => {
                    // refresh the region cache, then
                    //continue;
                    Err(Error::other(code))
                }
                _ => {
                    //continue;
                    Err(Error::other(code))
                }
            };
        }
        Err(Error::other("no response"))
    }
}
