use backon::{ExponentialBuilder, Retryable};

async fn wait_for_leader(cluster: &Cluster) -> Result<NodeId, ClusterError> {
    (|| cluster.leader())
        .retry(
            ExponentialBuilder::default()
                .with_jitter()
                .without_max_times()
                .with_total_delay(Some(Duration::from_secs(30))),
        )
        .when(|e| e.is_no_leader())
        .await
}
