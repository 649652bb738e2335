// Two probes: each function answers yes or no, and each pass only asks
// whether the peer answers (a bare TCP connect, a call named as a
// question), reduced to `.is_ok()`. No operation's result or error is handed
// on, so "every error goes round" is what a reachability check means
// (build-trust/ockam `is_endpoint_accessible`, `is_node_accessible`,
// `fb8fb64cd`; nineteenth pass).
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

pub fn is_endpoint_accessible(address: SocketAddr, check_timeout: Duration) -> bool {
    let now = Instant::now();
    let mut wait = Duration::from_millis(100);
    loop {
        if TcpStream::connect_timeout(&address, wait).is_ok() {
            return true;
        } else {
            if now.elapsed() >= check_timeout {
                return false;
            }
            std::thread::sleep(wait);
            wait *= 2;
        }
    }
}

pub async fn is_node_accessible(node: &mut NodeClient, timeout: Duration) -> anyhow::Result<bool> {
    let mut total = Duration::ZERO;
    let mut wait = Duration::from_millis(100);
    loop {
        if total >= timeout {
            return Ok(false);
        }
        if node.is_accessible().await.is_ok() {
            tracing::trace!("node is accessible");
            return Ok(true);
        }
        tracing::trace!("node is not accessible, retrying");
        tokio::time::sleep(wait).await;
        total += wait;
        wait *= 2;
    }
}

pub struct NodeClient {
    client: reqwest::Client,
}

impl NodeClient {
    pub async fn is_accessible(&self) -> Result<(), reqwest::Error> {
        self.client.get("https://node.example/health").send().await?;
        Ok(())
    }
}
