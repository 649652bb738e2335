// A wait for a watch's next value, not a retry (risingwave hummock
// `wait_for_update`): the `Err` that goes round is the 30 s `timeout`
// elapsing while nothing changed; a closed channel leaves.
use std::time::Duration;
use tokio::sync::watch::Receiver;

pub async fn wait_for_update(
    receiver: &mut Receiver<Version>,
    mut inspect: impl FnMut(&Version) -> Result<bool, Error>,
) -> Result<(), Error> {
    if inspect(&receiver.borrow_and_update())? {
        return Ok(());
    }
    loop {
        match tokio::time::timeout(Duration::from_secs(30), receiver.changed()).await {
            Err(_) => {
                tracing::warn!("no version update for 30 s, retrying the wait");
                continue;
            }
            Ok(Err(_)) => {
                return Err(Error::Other("version update channel closed".into()));
            }
            Ok(Ok(_)) => {
                if inspect(&receiver.borrow_and_update())? {
                    return Ok(());
                }
            }
        }
    }
}
