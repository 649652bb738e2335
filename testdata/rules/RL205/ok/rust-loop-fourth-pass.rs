// Loops that are bounded or are not retries (seen wrong on a repository
// outside the review set, docs/loop-review.md fourth pass): a clock test
// that ends the process, a cap in the `else` branch, a wait for a file to
// appear (`Ok(true)`), a poll of a copy's status (`Pending`), a queue
// consumer whose `Ok(None)` is the channel closing, and a reconnecting
// subscriber that leaves only on shutdown.

use std::time::{Duration, Instant};

const WAIT_TIMEOUT: Duration = Duration::from_secs(600);
const MAX_TRIES: usize = 10;

// The clock ends the process: bounded by time.
async fn wait_until_ready(conn: &str) {
    let start = Instant::now();
    loop {
        if start.elapsed() > WAIT_TIMEOUT {
            tracing::error!("timed out waiting for the database");
            std::process::exit(1);
        }
        match connect(conn).await {
            Ok(_) => break,
            Err(_) => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        }
    }
}

// The cap is in the `else` branch.
async fn get(registry: &Registry, id: u64) -> Result<Handle, Error> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match registry.lookup(id).await {
            Ok(h) => return Ok(h),
            Err(e @ Error::NotActiveYet) => {
                if attempt < MAX_TRIES {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                } else {
                    return Err(e);
                }
            }
            Err(e) => return Err(e),
        }
    }
}

// Waiting for a file to exist: a poll for a state.
async fn wait_for_key(path: &std::path::Path) {
    loop {
        if let Ok(true) = tokio::fs::try_exists(path).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await
    }
}

// Polling a server-side copy until it is no longer pending.
async fn await_copy(client: &BlobClient) -> anyhow::Result<()> {
    let mut status = client.start_copy().await?;
    loop {
        match status {
            CopyStatus::Aborted => anyhow::bail!("aborted"),
            CopyStatus::Failed => anyhow::bail!("failed"),
            CopyStatus::Success => return Ok(()),
            CopyStatus::Pending => (),
        }
        tokio::time::sleep(Duration::from_millis(1000)).await;
        status = client.copy_status().await?;
    }
}

// A queue consumer: a receive timeout flushes, `Ok(None)` is the end.
impl Deleter {
    async fn background(&mut self) -> Result<(), QueueError> {
        let max_keys_per_delete = self.remote_storage.max_keys_per_delete();
        self.accumulator.reserve(max_keys_per_delete);

        loop {
            if self.cancel.is_cancelled() {
                return Err(QueueError::ShuttingDown);
            }

            let msg = match tokio::time::timeout(FLUSH_INTERVAL, self.rx.recv()).await {
                Ok(Some(m)) => m,
                Ok(None) => {
                    info!("Shutting down");
                    return Err(QueueError::ShuttingDown);
                }
                Err(_) => {
                    self.flush().await?;

                    continue;
                }
            };

            match msg {
                Message::Delete(mut list) => {
                    while !list.is_empty() || self.accumulator.len() == max_keys_per_delete {
                        if self.accumulator.len() == max_keys_per_delete {
                            self.flush().await?;
                            // Full: proceed with attempting the delete.
                            assert_eq!(self.accumulator.len(), 0);
                        }

                        let available_slots = max_keys_per_delete - self.accumulator.len();
                        let take_count = std::cmp::min(available_slots, list.len());
                        for path in list.drain(list.len() - take_count..) {
                            self.accumulator.push(path);
                        }
                    }
                }
                Message::Flush(flush_op) => {
                    self.flush().await?;
                    flush_op.notify();
                }
            }
        }
    }
}

// A subscriber that reconnects for as long as it runs: it leaves only on
// shutdown, never because something succeeded.
async fn handle_messages(redis: &Redis, cancel: CancellationToken) -> anyhow::Result<()> {
    loop {
        if cancel.is_cancelled() {
            return Ok(());
        }
        let mut conn = match redis.connect().await {
            Ok(conn) => conn,
            Err(e) => {
                tracing::error!("failed to connect: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut stream = conn.on_message();
        while let Some(msg) = stream.next().await {
            if handle(msg).await.is_err() {
                break;
            }
        }
    }
}

// Claiming a PID file, a lock only one process may hold: waiting for it.
async fn claim_pid_file(path: &std::path::Path) -> PidGuard {
    loop {
        match pid_file::claim_for_current_process(path) {
            Ok(guard) => break guard,
            Err(e) => {
                tracing::error!("could not claim the PID file, will try again: {e:?}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}
