use backon::{ExponentialBuilder, Retryable};

async fn load_profile(api: &Api, id: u64) -> Result<Profile, ApiError> {
    (|| api.profile(id))
        .retry(ExponentialBuilder::default().with_jitter())
        .when(|e| e.is_transient())
        .await
}
