use backon::{ExponentialBuilder, Retryable};

async fn load_profile(api: &Api, id: u64) -> Result<Profile, ApiError> {
    // No `.when(..)`: a 404 or a bad request is retried like a timeout.
    (|| api.profile(id))
        .retry(ExponentialBuilder::default().with_jitter())
        .await
}
