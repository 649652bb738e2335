use backon::{ExponentialBuilder, Retryable};

async fn wait_for_leader(cluster: &Cluster) -> Result<NodeId, ClusterError> {
    (|| cluster.leader())
        .retry(ExponentialBuilder::default().with_jitter().without_max_times())
        .when(|e| e.is_no_leader())
        .await
}
