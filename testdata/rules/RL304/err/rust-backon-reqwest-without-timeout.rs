// backon retries the upload four times with a growing wait, but each try
// can hang for ever: the client was built without a timeout.
use backon::{ExponentialBuilder, Retryable};

pub async fn upload(body: Vec<u8>) -> Result<(), reqwest::Error> {
    let client = reqwest::Client::builder().build()?;
    (|| async {
        client
            .put("http://blobs:9000/upload")
            .body(body.clone())
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    })
    .retry(ExponentialBuilder::default().with_max_times(4))
    .await
}
