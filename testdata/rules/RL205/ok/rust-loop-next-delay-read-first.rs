// The policy's next delay read into a local before the outcome is
// judged, and the loop left when there is none (`if next.is_none() {
// return e; }`): the schedule bounds the loop (svix's client
// `execute_with_backoff`).
use std::time::Duration;

async fn execute_with_backoff(req: Request, schedule: &[Duration]) -> Result<Response, Error> {
    let mut retries = schedule.iter();
    loop {
        let res = send(req.clone()).await;
        let next_backoff = retries.next().copied();
        match res {
            Ok(r) => return Ok(r),
            e @ Err(_) => {
                if next_backoff.is_none() {
                    return e;
                }
            }
        }
        tokio::time::sleep(next_backoff.expect("checked above")).await;
    }
}
