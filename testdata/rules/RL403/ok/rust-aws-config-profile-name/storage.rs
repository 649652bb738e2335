use aws_config::BehaviorVersion;

// The loader names the profile `batch`, which sets the retry mode and
// attempts (.aws/config), not the default profile.
async fn s3_client() -> aws_sdk_s3::Client {
    let config = aws_config::defaults(BehaviorVersion::latest())
        .profile_name("batch")
        .load()
        .await;
    aws_sdk_s3::Client::new(&config)
}
