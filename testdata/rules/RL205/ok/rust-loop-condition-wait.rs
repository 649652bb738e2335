// Waiting for a condition over what a check returns, under an overall
// timeout: a poll with a deadline, not a retry.

use std::time::Duration;

async fn wait_condition<T, F, U>(timeout: Duration, check: F, condition: U, retry_interval: Duration)
where
    F: Fn() -> BoxFuture<'static, T>,
    U: Fn(T) -> bool,
{
    tokio::time::timeout(timeout, async move {
        loop {
            if condition(check().await) {
                break;
            }
            tokio::time::sleep(retry_interval).await
        }
    })
    .await
    .unwrap();
}
