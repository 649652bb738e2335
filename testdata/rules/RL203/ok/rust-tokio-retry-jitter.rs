use tokio_retry::Retry;
use tokio_retry::strategy::{ExponentialBackoff, jitter};

async fn connect() -> Result<Conn, Error> {
    let strategy = ExponentialBackoff::from_millis(10).map(jitter).take(3);
    Retry::spawn(strategy, open_connection).await
}
