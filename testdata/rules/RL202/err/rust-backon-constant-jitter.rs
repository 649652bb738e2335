use backon::{ConstantBuilder, Retryable};

async fn renew_lease(store: &Store) -> Result<Lease, StoreError> {
    // Randomised, but never longer than 2 s however long the outage lasts.
    (|| store.renew())
        .retry(ConstantBuilder::default().with_delay(Duration::from_secs(1)).with_jitter())
        .when(StoreError::is_transient)
        .await
}
