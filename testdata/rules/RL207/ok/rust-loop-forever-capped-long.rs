// Retries until it gets through, backing off to five minutes between
// tries: a long outage sees one call every five minutes.
use std::time::Duration;

async fn deliver(broker: &Broker, msg: &Message) {
    let mut delay = Duration::from_millis(200);
    loop {
        match broker.publish(msg).await {
            Ok(()) => return,
            Err(e) => {
                tokio::time::sleep(delay).await;
                delay = std::cmp::min(delay * 2, Duration::from_secs(300));
            }
        }
    }
}
