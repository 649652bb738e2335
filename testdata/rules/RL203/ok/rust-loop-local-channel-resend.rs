// A send on an in-process channel whose receiving task ended: the closed
// sender is dropped so the next pass spawns a new one. Nothing remote
// failed; the fixed wait is no retry delay (openobserve's file-list
// broadcast).
async fn broadcast(node: Node, items: Vec<Item>) {
    for _attempt in 0..5 {
        let channel = {
            let mut events = EVENTS.write().await;
            events
                .entry(node.uuid.clone())
                .or_insert_with(|| spawn_sender(node.clone()))
                .clone()
        };
        if let Err(e) = channel.send(items.clone()) {
            EVENTS.write().await.remove(&node.uuid);
            tracing::error!(%e, "send to the node's channel failed, retrying");
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            continue;
        }
        break;
    }
}
