// A loop inside the future handed to a timeout stops when the time is up
// (matrix-org/matrix-rust-sdk's cross-signing upload, under
// `timeout(async { .. }, TIMEOUT)`): bounded by time, not unbounded.
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);
const RETRY_EVERY: Duration = Duration::from_millis(500);

impl Reset {
    pub async fn upload(&self) -> Result<(), Error> {
        tokio::time::timeout(
            TIMEOUT,
            async {
                while let Err(e) = self.client.send(self.request.clone()).await {
                    if e.is_permanent() {
                        return Err(e.into());
                    }
                    tokio::time::sleep(RETRY_EVERY).await;
                }
                Ok(())
            },
        )
        .await
        .map_err(|_| Error::TimedOut)?
    }
}
