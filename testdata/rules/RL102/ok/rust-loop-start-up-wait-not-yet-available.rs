// A start-up wait: the service tolerates its database restarting with it,
// so each pass asks whether the database has come up, under a time cap
// given by the caller, and the loop's own message says what a failure
// means ("not yet available, waiting"). It repeats no failed operation
// (neondatabase/neon storage controller `await_connection`).
use std::time::{Duration, Instant};

pub async fn await_database(url: &str, timeout: Duration) -> Result<(), ConnectionError> {
    let started = Instant::now();
    loop {
        match establish_connection(url).await {
            Ok(_) => return Ok(()),
            Err(e) => {
                if started.elapsed() > timeout {
                    return Err(e);
                }
                tracing::info!("Database not yet available, waiting... ({e})");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
