// Test support (`pub mod test_util;`): not the service's code.
use std::time::{Duration, Instant};

pub async fn retry_until<F, Fut, T, E>(mut f: F, retry: Duration, until: Duration) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let started = Instant::now();
    loop {
        match f().await {
            Ok(res) => return res,
            Err(_) => tokio::time::sleep(retry).await,
        }
    }
}
