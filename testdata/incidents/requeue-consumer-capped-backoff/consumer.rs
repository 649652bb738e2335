use std::time::Duration;

pub async fn forward(ledger: &LedgerClient, event: &Event) {
    let mut wait = Duration::from_millis(100);
    loop {
        match ledger.append(event).await {
            Ok(()) => return,
            Err(_) => {
                tokio::time::sleep(wait).await;
                wait = std::cmp::min(wait * 2, Duration::from_millis(3300));
            }
        }
    }
}
