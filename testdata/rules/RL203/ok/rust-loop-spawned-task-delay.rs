// The delay of a retry loop is its own: the fixed sleep of a task spawned
// from inside it (an event loop that runs after the connection is made)
// is that task's, not the retry's, whose wait doubles up to a cap.
async fn on_start(cfg: &Config, stopped: Arc<AtomicBool>) -> Result<Client, Error> {
    let mut attempts = 0;
    while attempts < 20 {
        match connect(cfg) {
            Ok((client, mut events)) => {
                let stopped = stopped.clone();
                tokio::spawn(async move {
                    while !stopped.load(Ordering::Relaxed) {
                        if let Err(e) = events.poll().await {
                            tracing::error!("event loop failed: {e:?}");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                });
                return Ok(client);
            }
            Err(e) => tracing::warn!("connect failed, retrying: {e}"),
        }
        tokio::time::sleep(Duration::from_millis((50 * (1 << attempts)).min(5_000))).await;
        attempts += 1;
    }
    Err(Error::GaveUp)
}
