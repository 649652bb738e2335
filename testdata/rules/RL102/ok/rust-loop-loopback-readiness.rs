// A wait for a process on this machine: the function reaches a loopback
// host (`127.0.0.1`, `localhost`, a database URL `@localhost`), a server
// the program or its harness started; polling it until it answers
// retries no remote service (deno's desktop dev-server poll, hyperlane's
// local-chain balance read).
use std::time::Duration;

async fn start_preview(port: u16) -> Result<(), std::io::Error> {
    spawn_server(port)?;
    loop {
        if let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
            if stream.write_all(b"GET / HTTP/1.1\r\n\r\n").await.is_ok() {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Ok(())
}

fn run_scenario() -> f64 {
    let db = "postgresql://postgres:secret@localhost:5432/postgres";
    start_scraper(db);
    loop {
        match balance_of(9092) {
            Ok(b) => break b,
            Err(e) => {
                log::info!("balance not available: {e}");
                std::thread::sleep(Duration::from_secs(5));
            }
        }
    }
}
