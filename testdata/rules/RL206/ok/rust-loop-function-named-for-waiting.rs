// Waits named as waits: a function whose name says it waits (`wait`,
// `poll`, `ready`, or ending in `confirm`) loops until a state is reached:
// a node answers, a transaction is confirmed. Each pass asks again; no
// failed operation is retried (hyperlane's `wait_for_*` of its local
// harness and `send_and_confirm`, the thirteenth pass's study).
use std::time::Duration;
use tokio::time::sleep;

const MAX_ATTEMPTS: u32 = 60;

async fn wait_for_node(client: &reqwest::Client, url: &str) -> Result<(), String> {
    for attempt in 1..=MAX_ATTEMPTS {
        if let Ok(resp) = client.post(url).body("{}").send().await {
            if resp.status() == 200 {
                tracing::info!(attempt, "node ready");
                return Ok(());
            }
        }
        sleep(Duration::from_secs(1)).await;
    }
    Err("node did not start".into())
}

async fn send_and_confirm(rpc: &RpcClient, tx: &Tx) -> Result<(), String> {
    rpc.send_transaction(tx).await.map_err(|e| e.to_string())?;
    for _ in 0..30 {
        sleep(Duration::from_millis(400)).await;
        match rpc.get_signature_status(&tx.signature).await {
            Ok(status) => return Ok(status),
            Err(e) => tracing::debug!(error = ?e, "not confirmed"),
        }
    }
    Err("not confirmed".into())
}
