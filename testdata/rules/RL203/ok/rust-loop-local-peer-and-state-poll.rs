// Two waits that read as retries on main (sixteenth pass, unseen):
// - a connect to the node this tool runs beside, named local only in the
//   loop's own failure message ("failed to connect to local nym-node":
//   nymtech/nym `throughput_tester/client.rs`): a readiness wait on this
//   host, not a server retried;
// - a service asked for its state until it reports stopped
//   (mullvad/mullvadvpn-app `driver_setup/service.rs`): the leaving arm is
//   an `Ok` whose state is the one waited for, and every other answer, a
//   success in another state included, goes round. A poll for a state.
use anyhow::bail;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::time::sleep;

pub async fn forward(node_listener: SocketAddr) -> anyhow::Result<TcpStream> {
    let start = Instant::now();
    let connection = loop {
        if let Ok(c) = TcpStream::connect(node_listener).await {
            break c;
        }
        sleep(Duration::from_secs(1)).await;
        if start.elapsed() > Duration::from_secs(10) {
            bail!("failed to connect to local nym-node")
        }
    };
    Ok(connection)
}

pub struct Status {
    pub current_state: ServiceState,
}

#[derive(PartialEq)]
pub enum ServiceState {
    Running,
    Stopped,
}

pub fn stop_and_delete(client: &service_client::Client, name: &str) -> Result<(), service_client::Error> {
    let service = client.open_service(name)?;
    let _ = service.stop();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match service.query_status() {
            Ok(status) if status.current_state == ServiceState::Stopped => break,
            _ => {}
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    service.delete()
}
