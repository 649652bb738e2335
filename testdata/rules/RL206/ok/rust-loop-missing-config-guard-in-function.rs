// A resume waited out while its config is missing: the arm that goes round
// is guarded by a function of the file whose body asks only for
// `ConfigNotFound` (and the count); every other failure leaves, the arm
// that logs a second call's failure before it returns included. Each pass
// waits for the config to appear, it does not retry a failed operation, so
// seven passes are no retry count (rustfs/rustfs
// `resume_local_decommission_after_init`, twenty-sixth pass).
use std::time::Duration;

const RESUME_MAX_CONFIG_RETRIES: usize = 6;
const RESUME_RETRY_DELAY: Duration = Duration::from_secs(30);

fn should_retry_resume(err: &Error, attempt: usize) -> bool {
    matches!(err, Error::ConfigNotFound) && attempt < RESUME_MAX_CONFIG_RETRIES
}

pub async fn resume_after_start(store: Arc<Store>, pools: Vec<usize>) {
    for attempt in 0..=RESUME_MAX_CONFIG_RETRIES {
        match store.resume_remote_jobs(pools.clone()).await {
            Ok(()) => return,
            Err(err) if is_running(&err) => {
                if let Err(spawn_err) = store.spawn_workers(pools.clone()).await {
                    tracing::error!(error = %spawn_err, "failed to spawn workers");
                }
                return;
            }
            Err(err) if should_retry_resume(&err, attempt) => {
                tracing::warn!(retry_count = attempt + 1, error = %err, "retrying resume after missing config");
                tokio::time::sleep(RESUME_RETRY_DELAY).await;
            }
            Err(err) => {
                tracing::error!(error = %err, "failed to resume");
                return;
            }
        }
    }
}
