// Waits for a process on this machine, not retries of a service: the
// address is a loopback host written inside a format string
// (`"{protocol}:127.0.0.1:{port}"`), or the function started the process
// it then asks until it answers (`command.spawn()` before the loop).
async fn ensure_server_has_started(provider: &Provider, protocol: &str, port: u16) -> Result<()> {
    let address = format!("{protocol}:127.0.0.1:{port}");
    let node = provider.make_node(&address)?;
    for i in 0..10 {
        sleep(Duration::from_millis(i * 500)).await;
        let result = node.get_version_info().await;
        if result.is_ok() {
            return Ok(());
        }
        tracing::warn!("server not up yet, retrying");
    }
    bail!("server did not start")
}

async fn run(&self) -> Result<Guard> {
    let mut command = self.command();
    let child = command.spawn()?;
    let guard = Guard { child };
    for i in 1..10 {
        let result = check_validity(&self.endpoint).await;
        if result.is_ok() {
            return Ok(guard);
        }
        sleep(Duration::from_secs(i)).await;
    }
    bail!("child server did not start")
}
