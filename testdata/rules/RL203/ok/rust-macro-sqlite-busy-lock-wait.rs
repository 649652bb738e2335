// A macro around every call of a repository backed by SQLite: only SQLite's
// busy lock ("database is locked") goes round, every other error leaves.
// Another connection of this machine holds the database file; each pass
// waits for it to let go, nothing remote failed, so a short fixed wait is
// no retry of a service (build-trust/ockam `cli_state/storage/auto_retry.rs`
// `fb8fb64cd`, 95 calls; nineteenth pass).
macro_rules! retry {
    ($async_function:expr) => {{
        let mut retries = 0;
        loop {
            match $async_function.await {
                Ok(result) => break Ok(result),
                Err(err) => {
                    if err.to_string().contains("database is locked") && retries < 100 {
                        tokio::time::sleep(tokio::time::Duration::from_millis(10)).await;
                    } else {
                        break Err(err);
                    }
                    retries += 1;
                }
            }
        }
    }};
}

pub struct AutoRetry<T> {
    wrapped: T,
}

impl<T: NodesRepository> AutoRetry<T> {
    pub async fn get_node(&self, name: &str) -> Result<Option<NodeInfo>, StoreError> {
        retry!(self.wrapped.get_node(name))
    }

    pub async fn delete_node(&self, name: &str) -> Result<(), StoreError> {
        retry!(self.wrapped.delete_node(name))
    }
}
