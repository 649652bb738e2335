// A crate's own `ExponentialBackoff` (here in `crate::common::backoff`) is
// not the `backoff` crate's: its `default()` has none of that crate's
// 15-minute `max_elapsed_time`, so no attempt count follows from it. Only a
// path that starts at the `backoff` crate (`use backoff::..`,
// `backoff::ExponentialBackoff`) means that crate.
use std::time::Duration;

use crate::common::backoff::ExponentialBackoff;

pub async fn connect_backoff(&self) -> Conn {
    let mut backoff = ExponentialBackoff::default();
    loop {
        match self.connect().await {
            Ok(conn) => return conn,
            Err(error) => {
                warn!(%error, "unable to connect");
                tokio::time::sleep(backoff.next().unwrap()).await;
            }
        }
    }
}

pub fn fresh_backoff() -> ExponentialBackoff {
    ExponentialBackoff::from_millis(2)
        .factor(250)
        .max_delay(Duration::from_secs(60))
}
