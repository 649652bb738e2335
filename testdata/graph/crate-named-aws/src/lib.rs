//! Issue 17 (tikv's `components/cloud/aws`): the crate is named `aws` and
//! builds an S3 client; its call to AWS is no `aws -> aws` retry cycle.

use aws_sdk_s3::Client;

pub async fn client() -> Client {
    let config = aws_config::load_from_env().await;
    Client::new(&config)
}
