// A send on an in-process channel tested with `.is_err()`: the waiting
// tasks' receiver was dropped, and the next pass takes the loading slot
// again or waits on another task's load; nothing remote failed.
impl Workers {
    async fn worker_for(&self, id: ChainId) -> Result<Arc<Worker>, Error> {
        loop {
            let (sender, receiver) = oneshot::channel();
            match self.slots.compute(id, receiver.shared()) {
                Slot::Wait(shared) => {
                    if let Ok(weak) = shared.await {
                        if let Some(w) = weak.upgrade() {
                            return Ok(w);
                        }
                    }
                    // the other load failed; retry
                }
                Slot::Load => {
                    let worker = self.load(id).await?;
                    if sender.send(Arc::downgrade(&worker)).is_err() {
                        tracing::error!("receiver dropped while loading");
                        continue;
                    }
                    return Ok(worker);
                }
            }
        }
    }
}
