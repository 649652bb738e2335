use tokio_retry::Retry;
use tokio_retry::strategy::{ExponentialBackoff, jitter};

async fn subscribe(broker: &Broker) -> Result<Subscription, BrokerError> {
    // No `.take(n)`: the strategy never runs out of delays.
    let strategy = ExponentialBackoff::from_millis(2)
        .max_delay(Duration::from_secs(30))
        .map(jitter);
    Retry::spawn(strategy, || broker.subscribe("orders")).await
}
