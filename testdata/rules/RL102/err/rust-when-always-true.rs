// A predicate that says yes to every error is no predicate: backon's
// `.when(|_| true)` and tokio-retry's `RetryIf` with `|_: &E| true`
// retry client errors and bugs like no predicate at all.

use backon::{ExponentialBuilder, Retryable};
use tokio_retry::strategy::{jitter, ExponentialBackoff};
use tokio_retry::RetryIf;

async fn load_profile(api: &Api, id: u64) -> Result<Profile, ApiError> {
    (|| api.profile(id))
        .retry(ExponentialBuilder::default().with_jitter())
        .when(|_| true)
        .await
}

async fn load_orders(api: &Api, id: u64) -> Result<Vec<Order>, ApiError> {
    let strategy = ExponentialBackoff::from_millis(10).map(jitter).take(3);
    RetryIf::spawn(strategy, || api.orders(id), |_: &ApiError| true).await
}
