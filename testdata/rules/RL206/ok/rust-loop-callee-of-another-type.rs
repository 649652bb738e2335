// The attempt calls `create_server`, which calls `ServerOptions::new()`:
// another type's constructor, not this file's `Peer::new` (whose body
// reads a `peer` static). Nothing else says the bind leaves the process,
// so the loop is no retry of a remote operation (firezone, sixteenth
// pass).
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static SKIP_PEER_CHECK: AtomicBool = AtomicBool::new(false);

pub struct Peer {
    check: bool,
}

impl Peer {
    pub fn new() -> Self {
        Peer {
            check: !SKIP_PEER_CHECK.load(Ordering::Relaxed),
        }
    }
}

pub async fn bind(path: &str) -> Result<Server, BindError> {
    for _ in 0..100 {
        match create_server(path) {
            Ok(server) => return Ok(server),
            Err(BindError::Busy) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(e) => return Err(e),
        }
    }
    Err(BindError::Busy)
}

fn create_server(path: &str) -> Result<Server, BindError> {
    let mut options = ServerOptions::new();
    options.first_instance(true);
    options.create(path)
}
