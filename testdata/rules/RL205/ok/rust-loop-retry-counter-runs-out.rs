// A counting object records each failure and fails itself once its
// budget is spent; the `?` on it leaves the loop. The loop is bounded by
// the counter's configuration, a count the loop does not show.
use std::time::Duration;

struct Attempts {
    failures: u32,
    max: u32,
}

impl Attempts {
    fn record(&mut self, e: Error) -> Result<(), Error> {
        self.failures += 1;
        if self.failures >= self.max { Err(e) } else { Ok(()) }
    }
    fn pause(&self) -> Duration {
        Duration::from_millis(100 * u64::from(self.failures))
    }
}

pub async fn write_batch(client: &Client, batch: &Batch, max: u32) -> Result<Ack, Error> {
    let mut retry_state = Attempts { failures: 0, max };
    loop {
        match client.write(batch).await {
            Ok(ack) => return Ok(ack),
            Err(e) if e.is_transient() => {
                retry_state.record(e)?;
                tokio::time::sleep(retry_state.pause()).await;
            }
            Err(e) => return Err(e),
        }
    }
}
