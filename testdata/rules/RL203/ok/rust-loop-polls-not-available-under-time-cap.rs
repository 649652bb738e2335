// Only "the record is not available yet" goes round, under a time cap:
// the loop waits for another writer to publish the first record (a poll
// for a state at a steady interval), it does not retry a failed call;
// every other error leaves at once.
use std::time::{Duration, Instant};

const FIRST_RECORD_WAIT: Duration = Duration::from_secs(300);
const FIRST_RECORD_POLL: Duration = Duration::from_secs(1);

pub async fn read_first_record(store: &StoreClient, id: RecordId) -> Result<Vec<u8>, StoreError> {
    let started = Instant::now();
    let record = loop {
        match store.fetch_record(&id).await {
            Ok(record) => break record,
            Err(err) if err.is_record_not_available_error() => {
                if started.elapsed() > FIRST_RECORD_WAIT {
                    return Err(err);
                }
                tokio::time::sleep(FIRST_RECORD_POLL).await;
                continue;
            }
            Err(err) => return Err(err),
        }
    };
    Ok(record)
}
