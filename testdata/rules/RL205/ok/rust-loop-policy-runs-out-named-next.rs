// The back-off object runs out: its next delay asked for under another
// name (`next_delay_duration()`), in a `match` whose `None` leaves or an
// `if let Some(d)` followed by a `return`; and a counter counted down in
// the guard of the arm that goes round (`if retries > 0`) or in the test
// before `continue` (`budget > 0 && ..`). Each loop is bounded.
async fn handler(plan: Plan, mut backoff: Backoff) -> Result<Resp, Error> {
    loop {
        match plan.execute().await {
            Ok(resp) => return Ok(resp),
            Err(e) if is_grpc_error(&e) => match backoff.next_delay_duration() {
                Some(duration) => {
                    sleep(duration).await;
                    continue;
                }
                None => return Err(e),
            },
            Err(e) => return Err(e),
        }
    }
}

async fn txn_status(client: &Client, mut backoff: Backoff) -> Result<Status, Error> {
    loop {
        match client.check_txn_status().await {
            Ok(status) => return Ok(status),
            Err(Error::TxnNotFound(e)) => {
                if let Some(duration) = backoff.next_delay_duration() {
                    sleep(duration).await;
                    continue;
                }
                return Err(Error::TxnNotFound(e));
            }
            Err(err) => return Err(err),
        }
    }
}

async fn put_with_retries(s3: &S3, key: &str, blob: Bytes, mut retries: usize) -> Result<(), Error> {
    while let Err(err) = s3.put_blob(key, blob.clone()).await {
        match err {
            Error::Unavailable(e) if retries > 0 => {
                tracing::debug!("unavailable: {e}, {retries} retries left");
                retries -= 1;
                sleep(Duration::from_secs(5)).await;
            }
            err => {
                tracing::error!("could not save: {err}");
                break;
            }
        }
    }
    Ok(())
}

async fn resend(&self, request: Request) -> Result<Response, Error> {
    let mut budget = 3u8;
    loop {
        match self.client.send(request.clone()).await {
            Ok(r) => return Ok(r),
            Err(e) => {
                if budget > 0 && e.is_timeout() {
                    budget -= 1;
                    sleep(Duration::from_millis(200)).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
