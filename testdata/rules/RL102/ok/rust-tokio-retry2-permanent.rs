// tokio-retry2: the action sorts its failures into `RetryError::permanent`
// (not retried) and `RetryError::transient`; that is a retry predicate
// (tokio-retry2 0.5.6 src/error.rs: a permanent error is returned at once).

use tokio_retry2::strategy::{jitter, ExponentialBackoff};
use tokio_retry2::{Retry, RetryError};

async fn load_profile(api: &Api, id: u64) -> Result<Profile, ApiError> {
    let strategy = ExponentialBackoff::from_millis(10).map(jitter).take(3);
    Retry::spawn(strategy, || async {
        match api.profile(id).await {
            Ok(p) => Ok(p),
            Err(e) if e.is_client_error() => Err(RetryError::permanent(e)),
            Err(e) => Err(RetryError::transient(e)),
        }
    })
    .await
}
