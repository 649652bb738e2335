// Retry loops with a written bound: a constant, a counter counted down,
// and an elapsed-time cap.
use std::time::{Duration, Instant};

const MAX_ATTEMPTS: usize = 3;

async fn register(client: &Client) -> Result<(), Error> {
    let mut attempt = 0;
    while attempt < MAX_ATTEMPTS {
        match client.register().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(200 * attempt as u64)).await;
            }
        }
    }
    Err(Error::GaveUp)
}

async fn upload(client: &Client, retries: u32) -> Result<(), Error> {
    let mut retries_left = retries;
    loop {
        match client.upload().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                if retries_left == 0 {
                    return Err(e);
                }
                retries_left -= 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

async fn connect(client: &Client, timeout: Duration) -> Result<Conn, Error> {
    let start = Instant::now();
    loop {
        match client.connect().await {
            Ok(c) => return Ok(c),
            Err(e) => {
                if start.elapsed() > timeout {
                    return Err(e);
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

async fn wait_ready(client: &Client, deadline: Instant) -> Result<(), Error> {
    while Instant::now() < deadline {
        if client.ping().await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(Error::Timeout)
}

fn download_with_retry(url: &str) {
    for attempt in 1.. {
        match download(url) {
            Ok(()) => break,
            Err(e) if attempt < 100 => {
                log(e);
                std::thread::sleep(Duration::from_secs(1));
            }
            Err(e) => panic!("download of {url} failed: {e}"),
        }
    }
}
