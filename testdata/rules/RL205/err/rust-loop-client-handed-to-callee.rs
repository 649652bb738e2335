// The attempt is a method of this file whose body hands a connection to
// another type's call (`Semaphore::acquire(client, ..)`): the remote side
// is the `client` it passes. Each timeout or failure goes round at once,
// for ever (databend's meta-service semaphore, lost at stop 44, sixteenth
// pass).
use std::time::Duration;

impl MetaStore {
    pub async fn acquire_by_time(&self, key: String, timeout: Duration) -> Result<Permit, Error> {
        loop {
            let timeout_res = self.do_acquire(key.clone(), timeout).await;
            let res = match timeout_res {
                Ok(acquire_res) => acquire_res,
                Err(_elapsed) => {
                    tracing::warn!("acquire timed out; retry at once");
                    continue;
                }
            };
            match res {
                Ok(permit) => return Ok(permit),
                Err(err) => {
                    tracing::warn!("acquire failed: {err:?}; retry at once");
                    continue;
                }
            }
        }
    }

    async fn do_acquire(&self, key: String, timeout: Duration) -> Result<Result<Permit, Error>, Elapsed> {
        let client = self.inner().clone();
        tokio::time::timeout(timeout, Semaphore::acquire(client, key)).await
    }
}
