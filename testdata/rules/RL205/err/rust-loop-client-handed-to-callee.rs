// The attempt is a method of this file whose body hands a connection to
// another type's call (`Semaphore::acquire(client, ..)`): the remote side
// is the `client` it passes. Each timeout goes round at once, for ever
// (databend's meta-service semaphore, lost at stop 44, sixteenth pass).
use std::time::Duration;

impl MetaStore {
    pub async fn acquire_by_time(&self, key: String, timeout: Duration) -> Result<Permit, Error> {
        loop {
            match self.try_acquire(key.clone(), timeout).await {
                Ok(Ok(permit)) => return Ok(permit),
                Ok(Err(e)) => return Err(e),
                Err(_elapsed) => {
                    tracing::warn!("acquire timed out, again at once");
                }
            }
        }
    }

    async fn try_acquire(&self, key: String, timeout: Duration) -> Result<Result<Permit, Error>, Elapsed> {
        let client = self.inner().clone();
        tokio::time::timeout(timeout, Semaphore::acquire(client, key)).await
    }
}
