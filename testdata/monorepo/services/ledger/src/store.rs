//! Ledger entries in DynamoDB.

use aws_sdk_dynamodb::Client;

pub async fn client() -> Client {
    // No retry configuration: the SDK's standard mode applies (3 attempts).
    let config = aws_config::load_from_env().await;
    Client::new(&config)
}
