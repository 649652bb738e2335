// Only "the record is not available yet" goes round, under a time cap, and
// every other error leaves at once: a poll for another writer's first
// record, even though its interval constant is named a retry's
// (`FIRST_RECORD_RETRY_INTERVAL`). The loop's words do not make the wait a
// retry when nothing but "not there yet" goes round.
use std::time::{Duration, Instant};

const FIRST_RECORD_TIMEOUT: Duration = Duration::from_secs(300);
const FIRST_RECORD_RETRY_INTERVAL: Duration = Duration::from_secs(1);

pub async fn read_first_record(store: &StoreClient, id: RecordId) -> Result<Vec<u8>, StoreError> {
    let started = Instant::now();
    let record = loop {
        match store.fetch_record(&id).await {
            Ok(record) => break record,
            Err(err) if err.is_record_not_available_error() => {
                if started.elapsed() > FIRST_RECORD_TIMEOUT {
                    return Err(err);
                }
                tokio::time::sleep(FIRST_RECORD_RETRY_INTERVAL).await;
                continue;
            }
            Err(err) => return Err(err),
        }
    };
    Ok(record)
}
