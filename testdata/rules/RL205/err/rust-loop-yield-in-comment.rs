// A word in a comment is not code (the shape of neon's `thread_local_system`,
// here launching a job on a cluster): "doesn't yield" does not make this a
// stream's read loop; the launch is retried for ever while it fails.
pub async fn launch_system() -> System {
    let mut attempt_no = 0;
    loop {
        // Rate-limit retries. NB: doesn't yield to executor at attempt_no=0.
        utils::backoff::exponential_backoff(attempt_no, 0.1, 10.0, &cancel).await;
        attempt_no += 1;
        match cluster_client::launch().await {
            Ok(system) => return system,
            Err(e) => {
                tracing::warn!("launch failed, will retry: {e}");
                continue;
            }
        }
    }
}
