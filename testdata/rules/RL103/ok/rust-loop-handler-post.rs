// `post` on a task queue is not an HTTP POST; the loop's call shows no
// HTTP method, so RL103 does not judge it.
use std::time::Duration;

async fn hand_over(queue: &Queue, job: Job) -> Result<(), Error> {
    let mut attempt = 0;
    loop {
        match queue.post(job.clone()).await {
            Ok(()) => return Ok(()),
            Err(e) if attempt < 3 => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e),
        }
    }
}
