// A send on an in-process channel (`mpsc`) that fails because the
// receiving task ended: the loop drops the closed sender and registers or
// spawns a new one, then sends again. Nothing remote was called, so no
// server is hammered and no delay or limit is due (restatedev/restate's
// message router, openobserve's file-list broadcast).
use tokio::sync::mpsc;

impl Router {
    async fn dispatch(&self, service: Tag, code: u64, mut op: Op) -> Result<(), Error> {
        loop {
            let sender = self.sharded_sender(service, code).await?;
            if let Err(mpsc::error::SendError(msg)) = sender.send(op) {
                op = msg;
                self.shards.remove_if_matches(service, code, &sender);
                // retry with a fresh shard...
                continue;
            } else {
                break;
            }
        }
        Ok(())
    }
}
