use aws_config::BehaviorVersion;

// The loader names the profile `batch`, which sets no retry key
// (.aws/config): the SDK default applies, written nowhere. The default
// profile's retry settings are not read.
async fn s3_client() -> aws_sdk_s3::Client {
    let config = aws_config::defaults(BehaviorVersion::latest())
        .profile_name("batch")
        .load()
        .await;
    aws_sdk_s3::Client::new(&config)
}
