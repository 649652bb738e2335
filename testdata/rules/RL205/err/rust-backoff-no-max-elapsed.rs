use backoff::ExponentialBackoff;

async fn register(registry: &Registry) -> Result<(), backoff::Error<RegistryError>> {
    let policy = ExponentialBackoff {
        max_elapsed_time: None,
        ..Default::default()
    };
    backoff::future::retry(policy, || async { Ok(registry.register().await?) }).await
}
