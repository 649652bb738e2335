// A workspace's `benchmarks/` crate (a crate of its own, with its `src/`):
// it drives the service under load, it is not the service. Its wait for the
// server under test is no retry of service code.
use std::time::Duration;

pub async fn server_ready(target: &str) -> anyhow::Result<Conn> {
    let url = DatabaseUrl::from_str(target)?;
    let conn = loop {
        match url.connect().await {
            Ok(conn) => break conn,
            Err(e) => {
                println!("Error on connection to {target:?}: {e:?}");
                tokio::time::sleep(Duration::from_secs(1)).await
            }
        }
    };
    Ok(conn)
}
