// A countdown whose way out is a path-qualified `anyhow::bail!` (linkerd2
// b24cd40 `policy-controller/runtime/src/lease.rs`): three tries, not an
// unbounded loop.
async fn owner(api: &k8s::Api<Deployment>, name: &str) -> anyhow::Result<Deployment> {
    let mut tries = 3;
    let deployment = loop {
        tries -= 1;
        let error = match api.get(name).await {
            Ok(deploy) => break deploy,
            Err(k8s::Error::Api(error)) => (*error).into(),
            Err(error) => return Err(error.into()),
        };
        if tries == 0 {
            anyhow::bail!(error);
        }
        tracing::warn!(?error, "Failed to fetch deployment, retrying in 1s...");
        time::sleep(time::Duration::from_secs(1)).await;
    };
    Ok(deployment)
}
