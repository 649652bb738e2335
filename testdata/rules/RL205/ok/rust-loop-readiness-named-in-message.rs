// The loop's own message says its peer is not ready: a node this function
// started (a local dev chain) answers its RPC only once it has mined a
// block, and each pass asks whether it has come up; it does not retry a
// failed operation (EspressoSystems/espresso-sequencer `Anvil::spawn`,
// "RPC is not ready", `03b0f46ae`; nineteenth pass, read unseen).
use std::time::Duration;

pub struct Node {
    client: reqwest::Client,
    url: String,
}

impl Node {
    pub async fn start(url: String) -> Node {
        let node = Node {
            client: reqwest::Client::new(),
            url,
        };
        while let Err(err) = node.client.get(format!("{}/fee_history", node.url)).send().await {
            tracing::warn!("RPC is not ready: {err}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        node
    }
}
