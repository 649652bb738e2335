// Only transport errors go round (through the retry state's decision);
// a response that is not a success falls through the status test to the
// `return Err(..)` after it. No status is retried, so no client error is.
pub async fn put_object(client: &Client, url: &Url, data: Bytes, retry: &mut RetryState) -> Result<(), UploadError> {
    loop {
        let response = match client.put(url.clone()).body(data.clone()).send().await {
            Ok(response) => response,
            Err(err) => {
                if let Some(wait) = retry.should_retry(&err) {
                    tokio::time::sleep(wait).await;
                    continue;
                }
                return Err(UploadError::Send(err));
            }
        };

        if response.status().is_success() {
            break;
        }

        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        return Err(UploadError::Status(status, text));
    }
    Ok(())
}
