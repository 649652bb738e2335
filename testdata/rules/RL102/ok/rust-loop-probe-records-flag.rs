// A recovery monitor: a peer was marked offline, and a background task asks
// whether it answers again, a bounded number of times with a growing pause.
// The pass only asks (`connectivity_check(..)` reduced to `.is_ok()`); its
// success is recorded in a flag (`offline.store(false, ..)`) and the task
// ends. No operation's result or error is handed on: every failure of a
// reachability check means "not yet", so "every error goes round" (RL102)
// and "61 attempts" (RL206) do not apply (rustfs `spawn_recovery_monitor`,
// twenty-seventh pass). The function answers a task handle, not `bool`.
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const MAX_PROBES: u32 = 60;
const MAX_PAUSE: Duration = Duration::from_secs(30);

pub struct PeerLink {
    address: String,
    offline: Arc<AtomicBool>,
}

impl PeerLink {
    pub fn watch_recovery(&self) -> tokio::task::JoinHandle<()> {
        let address = self.address.clone();
        let offline = self.offline.clone();
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(500);
            for attempt in 0..=MAX_PROBES {
                tokio::time::sleep(pause).await;
                if Self::connectivity_check(&address, Duration::from_secs(2)).await.is_ok() {
                    offline.store(false, Ordering::Release);
                    tracing::info!(attempt, "peer answers again");
                    return;
                }
                pause = std::cmp::min(pause * 2, MAX_PAUSE);
            }
            tracing::warn!("peer still offline; the next request tries again");
        })
    }

    async fn connectivity_check(address: &str, limit: Duration) -> std::io::Result<()> {
        let url = reqwest::Url::parse(address).map_err(std::io::Error::other)?;
        let host = url.host_str().unwrap_or("localhost").to_string();
        let port = url.port().unwrap_or(443);
        tokio::time::timeout(limit, tokio::net::TcpStream::connect((host.as_str(), port)))
            .await
            .map_err(std::io::Error::other)??;
        Ok(())
    }
}
