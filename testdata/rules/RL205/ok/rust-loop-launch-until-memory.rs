// A local resource waited for: the only failure that goes round is this
// host running out of memory (`io::ErrorKind::OutOfMemory`, locked memory
// for an io_uring instance); every other launch failure aborts. Launching
// again reaches no other machine (neondatabase/neon pageserver
// `thread_local_system`).
use std::sync::atomic::{AtomicU32, Ordering};

static ATTEMPTS: AtomicU32 = AtomicU32::new(0);

pub async fn local_system() -> Handle {
    loop {
        let res = CELL
            .get_or_try_init(|| async {
                let attempt = ATTEMPTS.fetch_add(1, Ordering::Relaxed);
                backoff(attempt).await;
                match System::launch().await {
                    Ok(system) => Ok(system),
                    Err(LaunchError::Build(e)) if e.kind() == std::io::ErrorKind::OutOfMemory => {
                        tracing::warn!("not enough locked memory, will retry");
                        Err(())
                    }
                    Err(e) => fatal(e),
                }
            })
            .await;
        if res.is_ok() {
            return Handle::new();
        }
    }
}
