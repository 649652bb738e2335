// Loops that are not retries of the same call (seen wrong on a repository
// outside the review set, docs/loop-review.md fifth pass).

use std::time::Duration;

const RECYCLE_TTL: Duration = Duration::from_secs(60);

// A failure on the leader asks for the new leader and sends there: each
// pass goes to another node (failover), no wait is owed.
async fn with_retry(client: &Client, req: Request) -> Result<Response, Error> {
    let mut times = 0;
    while times < client.max_retry {
        let leader = client.leader();
        match client.send(&leader, req.clone()).await {
            Ok(res) => return Ok(res),
            Err(status) => {
                tracing::warn!("failed to send to {leader}: {status}, retrying");
                client.ask_leader().await?;
                times += 1;
                continue;
            }
        }
    }
    Err(Error::RetryTimesExceeded)
}

// A queue consumer: a receive with a timeout, whose timeout runs the
// periodic work and whose `Terminate` stops it.
async fn delete_routine(mut receiver: Receiver<Task>, bin: Bin) {
    loop {
        match tokio::time::timeout(RECYCLE_TTL, receiver.recv()).await {
            Ok(Some(task)) => match task {
                Task::File(path) => {
                    if let Err(err) = remove_file(&path).await {
                        tracing::warn!("failed to remove the file, retrying later: {err}");
                        continue;
                    }
                }
                Task::Terminate => break,
            },
            Ok(None) => break,
            Err(_) => bin.purge().await,
        }
    }
}
