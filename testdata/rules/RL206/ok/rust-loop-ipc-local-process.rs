// Waits for a process on this machine: the pass connects over IPC (a
// named pipe or a local socket, `ipc::connect`) to a helper process the
// program started; no remote service is retried.
async fn connect_manager(args: Vec<&str>) -> Result<Stream> {
    start_helper(args)?;
    let mut stream = None;
    for _ in 0..20 {
        sleep(Duration::from_millis(300)).await;
        if let Ok(s) = crate::ipc::connect(1000, "_cm").await {
            stream = Some(s);
            break;
        }
    }
    stream.ok_or_else(|| anyhow!("failed to connect to the connection manager"))
}
