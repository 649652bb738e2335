use aws_config::{BehaviorVersion, retry::RetryConfig};

async fn s3_client() -> aws_sdk_s3::Client {
    let config = aws_config::defaults(BehaviorVersion::latest())
        .retry_config(RetryConfig::standard().with_max_attempts(2))
        .load()
        .await;
    aws_sdk_s3::Client::new(&config)
}
