// A compare-and-set on an object's ETag: read the record, change it, save
// it only if the ETag is still the one read; when another writer saved
// first the store answers `PreconditionFailed` (HTTP 412) and the pass
// reads again, at once, at most 4 times. Every other error leaves. A few
// conflict retries need no delay (RL201's exemption); the count is the
// `for` range (rustfs/rustfs `update_manual_transition_job_record_from`,
// `acknowledge_mrf_recovery`).
const CAS_RETRIES: usize = 4;

pub async fn update_record(store: &Store, id: u64) -> Result<Record, Error> {
    for _ in 0..CAS_RETRIES {
        let (mut record, etag) = store.load_with_etag(id).await?;
        record.touch();
        match store.save_if_current(&record, &etag).await {
            Ok(()) => return Ok(record),
            Err(Error::PreconditionFailed) => continue,
            Err(err) => return Err(err),
        }
    }
    Err(Error::PreconditionFailed)
}
