// The counter that bounds the retries sits in the match guard beside the
// error test: the loop goes round only while it is under its limit.
use std::time::Duration;

async fn do_action(client: &Client, params: &Params) -> Result<Resp, Error> {
    let mut attempt = 0;
    loop {
        match client.action().await {
            Ok(r) => return Ok(r),
            Err(e) if e.code() == CANNOT_CONNECT && attempt < params.retry_times => {
                attempt += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => return Err(e),
        }
    }
}
