// A desktop client's module for talking to its own background service
// (`src/ipc.rs`): `connect_to_socket` and the `session` reach a process
// on this host, so the loops are no retries of a remote operation
// (firezone's GUI client, rustdesk's `ipc.rs`; sixteenth pass).
use std::time::Duration;

mod platform;

pub async fn connect(id: SocketId, attempts: u32) -> Result<Stream, Error> {
    let mut last_err = None;
    for _ in 0..attempts {
        match platform::connect_to_socket(id).await {
            Ok(stream) => return Ok(stream),
            Err(error) => {
                tracing::debug!("couldn't connect to the service socket: {error}");
                last_err = Some(error);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    Err(last_err.unwrap_or(Error::NoAttempt))
}

pub fn hello(session: &mut Session) -> Result<Reply, Error> {
    loop {
        match session.send_hello() {
            Ok(r) => return Ok(r),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}
