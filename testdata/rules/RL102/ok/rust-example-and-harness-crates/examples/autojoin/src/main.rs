// An example program of a workspace's `examples/` folder (a crate of its
// own, with its `src/`): it shows how to use the library, it is not the
// service (matrix-org/matrix-rust-sdk's examples).
use std::time::Duration;
use tokio::time::sleep;

async fn on_invite(room: Room) {
    tokio::spawn(async move {
        let mut delay = 2;
        while let Err(err) = room.join().await {
            eprintln!("failed to join room ({err:?}), retrying in {delay}s");
            sleep(Duration::from_secs(delay)).await;
            delay *= 2;
            if delay > 3600 {
                break;
            }
        }
    });
}
