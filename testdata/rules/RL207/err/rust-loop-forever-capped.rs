// Retries until it gets through, but the wait stops growing at 3 s: in an
// hour-long outage this consumer calls the broker every 3 s throughout.
use std::time::Duration;

async fn deliver(broker: &Broker, msg: &Message) {
    let mut delay = Duration::from_millis(200);
    loop {
        match broker.publish(msg).await {
            Ok(()) => return,
            Err(e) => {
                tokio::time::sleep(delay).await;
                delay = std::cmp::min(delay * 2, Duration::from_secs(3));
            }
        }
    }
}
