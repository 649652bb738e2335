// Waits, not retries: an answer that means "not there yet" goes round
// (a `404`/`NotFound` tested on the failure path, a `304 Not Modified`
// long poll), a task's state polled until it is final (`is_success() ||
// is_failure()`) (sigp/lighthouse's wait for genesis,
// matrix-org/matrix-rust-sdk's rendezvous channel, apache/iggy's
// Meilisearch task poll).
use reqwest::StatusCode;
use std::time::{Duration, Instant};
use tokio::time::sleep;

const RETRY_DELAY: Duration = Duration::from_secs(2);

async fn genesis(nodes: &Nodes) -> Result<Genesis, String> {
    let genesis = loop {
        match nodes.first_success(|node| async move { node.get_genesis().await }).await {
            Ok(genesis) => break genesis.data,
            Err(errors) => {
                if errors.iter().any(|e| e.status() == Some(StatusCode::NOT_FOUND)) {
                    tracing::info!("waiting for genesis");
                } else {
                    tracing::error!(%errors, "errors polling the node");
                }
            }
        }
        sleep(RETRY_DELAY).await;
    };
    Ok(genesis)
}

impl Channel {
    pub async fn receive(&mut self) -> Result<Vec<u8>, HttpError> {
        loop {
            let message = self.receive_one().await?;
            if message.status_code == StatusCode::OK && !message.body.is_empty() {
                return Ok(message.body);
            } else if message.status_code == StatusCode::NOT_MODIFIED {
                sleep(Duration::from_secs(1)).await;
                continue;
            } else {
                return Err(to_error(message.status_code));
            }
        }
    }
}

impl Sink {
    async fn task_result(&self, client: &Client, uid: u32) -> Result<Task, Error> {
        let started = Instant::now();
        loop {
            let remaining = self.task_timeout.saturating_sub(started.elapsed());
            if remaining.is_zero() {
                break;
            }
            let status = match tokio::time::timeout(remaining, client.get_task(uid)).await {
                Ok(status) => status?,
                Err(_) => break,
            };
            if status.is_success() || status.is_failure() {
                return Ok(status);
            }
            sleep(self.poll_interval.min(remaining)).await;
        }
        Err(Error::TimedOut)
    }
}
