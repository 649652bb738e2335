use tokio_retry::Retry;
use tokio_retry::strategy::ExponentialBackoff;

async fn connect() -> Result<Conn, Error> {
    // 10 ms, 100 ms, 1 s, no `.map(jitter)`.
    let strategy = ExponentialBackoff::from_millis(10).take(3);
    Retry::spawn(strategy, open_connection).await
}
