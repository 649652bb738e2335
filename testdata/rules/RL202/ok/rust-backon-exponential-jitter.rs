use backon::{ExponentialBuilder, Retryable};

async fn renew_lease(store: &Store) -> Result<Lease, StoreError> {
    (|| store.renew())
        .retry(ExponentialBuilder::default().with_jitter())
        .when(StoreError::is_transient)
        .await
}
