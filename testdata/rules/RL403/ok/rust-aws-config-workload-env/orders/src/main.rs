use aws_config::BehaviorVersion;

// No retry_config: aws-config reads AWS_RETRY_MODE and AWS_MAX_ATTEMPTS
// from the environment the Deployment gives this program (k8s/orders.yaml).
async fn s3_client() -> aws_sdk_s3::Client {
    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
    aws_sdk_s3::Client::new(&config)
}

#[tokio::main]
async fn main() {
    let _ = s3_client().await;
}
