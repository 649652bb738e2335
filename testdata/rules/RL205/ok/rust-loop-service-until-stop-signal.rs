// Service loops that run until a stop signal: each pass does a round of
// work (its failure logged) and waits, and the only ways out are the stop
// receiver's value (`*stop_receiver.borrow()`) or its change under the
// update interval (`timeout(interval, stop_receiver.changed())`). Leaving
// there is stopping, not success, so nothing here is a retry
// (matter-labs/zksync-era's proof senders and sealed-block updater,
// twenty-sixth pass).
use std::time::Duration;
use tokio::sync::watch;

pub struct Sender {
    client: ProvingClient,
    interval: Duration,
}

impl Sender {
    pub async fn run(&self, stop_receiver: watch::Receiver<bool>) -> anyhow::Result<()> {
        loop {
            if *stop_receiver.borrow() {
                tracing::info!("stop request received, sender is shutting down");
                return Ok(());
            }
            if let Err(e) = self.client.submit_next_request().await {
                tracing::error!("error submitting request: {e}");
            }
            tokio::time::sleep(self.interval).await;
        }
    }

    pub async fn update_sealed(&self, mut stop_receiver: watch::Receiver<bool>) -> anyhow::Result<()> {
        const UPDATE_INTERVAL: Duration = Duration::from_millis(25);
        while !*stop_receiver.borrow_and_update() {
            let Some(last) = self.client.latest_sealed_number().await? else {
                tokio::time::sleep(UPDATE_INTERVAL).await;
                continue;
            };
            self.client.record(last);
            if tokio::time::timeout(UPDATE_INTERVAL, stop_receiver.changed())
                .await
                .is_ok()
            {
                break;
            }
        }
        Ok(())
    }
}
