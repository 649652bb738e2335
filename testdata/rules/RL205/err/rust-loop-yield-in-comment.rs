// A word in a comment is not code (neon tokio_epoll_uring_ext.rs
// `thread_local_system`): "doesn't yield to executor" does not make this a
// stream's read loop; the launch is retried for ever while it fails.
pub async fn launch_system() -> System {
    let mut attempt_no = 0;
    loop {
        // Rate-limit retries. NB: doesn't yield to executor at attempt_no=0.
        utils::backoff::exponential_backoff(attempt_no, 0.1, 10.0, &cancel).await;
        attempt_no += 1;
        match System::launch().await {
            Ok(system) => return system,
            Err(e) => {
                tracing::warn!("not enough locked memory, will retry: {e}");
                continue;
            }
        }
    }
}
