// The module's folder is named for IPC too (`src/ipc/pipe.rs`): the GUI
// connects to the service's named pipe on this host until it is up.
use std::time::Duration;

pub async fn connect_to_service(path: &str) -> Result<PipeClient, Error> {
    loop {
        match ClientOptions::new().open(path) {
            Ok(client) => return Ok(client),
            Err(error) => {
                tracing::debug!("service pipe not ready: {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
