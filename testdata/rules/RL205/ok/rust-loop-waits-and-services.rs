// Loops that are not unbounded retries: a scheduler tick, a supervisor
// whose success goes round again, waits for a state through a
// non-blocking take, an `EINTR` read loop, a future awaited again, a
// countdown by `saturating_sub`, and a deadline that ends the loop by `?`.

use std::time::{Duration, Instant};

// A scheduler: success (`TickAgain`) goes round again.
fn run(scheduler: &Scheduler) {
    loop {
        match scheduler.tick() {
            Ok(Tick::Again) => (),
            Ok(Tick::Wait) => scheduler.wait(),
            Ok(Tick::Stop) => break,
            Err(e) => {
                log::error!("{e}");
                std::thread::sleep(Duration::from_secs(10));
            }
        }
    }
}

// Waiting until the last other owner lets go.
async fn unwrap_when_alone<T>(mut arc: Arc<T>, timeout: Duration) -> Result<T, Arc<T>> {
    let start = Instant::now();
    loop {
        arc = match Arc::try_unwrap(arc) {
            Ok(v) => return Ok(v),
            Err(arc) => arc,
        };
        if start.elapsed() >= timeout {
            return Err(arc);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// A pool waiting for room under its size limit.
async fn acquire(pool: &Pool) -> Result<Conn, Error> {
    loop {
        let permit = pool.acquire_permit().await?;
        match pool.pop_idle(permit) {
            Ok(conn) => return Ok(conn),
            Err(permit) => {
                if let Ok(guard) = pool.try_increment_size(permit) {
                    return pool.connect(guard).await;
                }
                tracing::debug!("no idle connection and no room for one; retrying");
                tokio::task::yield_now().await;
                continue;
            }
        }
    }
}

// Reading again after `EINTR` is the read loop, not a retry.
async fn read_line(reader: &mut Reader, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    loop {
        let available = match reader.fill_buf().await {
            Ok(n) => n,
            Err(ref e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Some(i) = find(available) {
            buf.extend_from_slice(&available[..i]);
            return Ok(i);
        }
        // retry reading the next chunk
        reader.consume(available.len());
    }
}

// Waiting longer each time for the same queue to drain.
async fn drain(shard: &Shard) -> Result<(), Error> {
    let mut attempt = 1;
    loop {
        let plunger = shard.plunge().await?;
        let wait = Duration::from_secs(1) * 2_u32.pow(attempt);
        if tokio::time::timeout(wait, plunger).await.is_err() {
            attempt += 1;
            continue;
        }
        break;
    }
    Ok(())
}

// Counted down with `saturating_sub`.
async fn call(client: &Client) -> Result<Body, Error> {
    let mut retries_left = 3;
    loop {
        match client.call().await {
            Ok(b) => return Ok(b),
            Err(e) => {
                if retries_left == 0 {
                    return Err(e);
                }
                retries_left = retries_left.saturating_sub(1);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

// The deadline ends the loop through `?`.
async fn connect(options: &Options, deadline: Instant) -> Result<Conn, Error> {
    let mut backoff = Duration::from_millis(10);
    loop {
        let timeout = deadline_as_timeout(deadline)?;
        match tokio::time::timeout(timeout, options.connect()).await {
            Ok(Ok(c)) => return Ok(c),
            Ok(Err(Error::Io(e))) if e.kind() == std::io::ErrorKind::ConnectionRefused => (),
            Ok(Err(e)) => return Err(e),
            Err(_) => return Err(Error::PoolTimedOut),
        }
        tokio::time::sleep(backoff).await;
        backoff = std::cmp::min(backoff * 2, Duration::from_secs(1));
    }
}
