use aws_config::BehaviorVersion;

async fn s3_client() -> aws_sdk_s3::Client {
    // Nothing set: the SDK retries 3 times in standard mode by itself.
    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
    aws_sdk_s3::Client::new(&config)
}
