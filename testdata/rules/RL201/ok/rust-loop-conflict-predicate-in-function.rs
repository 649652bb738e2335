// A compare-and-set on a journal object's ETag, read, changed and saved
// only if the ETag still matches: the arm that goes round is guarded by a
// function of the file whose body asks for `PreconditionFailed` (another
// writer saved first), and every other result leaves through the
// catch-all arm. A few conflict retries need no delay (RL201's
// exemption), wherever the conflict is named (rustfs/rustfs
// `update_force_delete_intents`, twenty-sixth pass).
const JOURNAL_CAS_RETRIES: usize = 3;

fn is_retryable_journal_error(error: &StoreError) -> bool {
    matches!(error, StoreError::PreconditionFailed)
}

pub async fn update_journal(store: Arc<Store>, entry: Entry) -> Result<(), StoreError> {
    for attempt in 0..=JOURNAL_CAS_RETRIES {
        let result = {
            let (mut entries, etag) = store.read_journal_remote().await?;
            if entries.contains(&entry) {
                return Ok(());
            }
            entries.push(entry.clone());
            store.save_journal_if_match(entries, etag).await
        };
        match result {
            Err(error) if is_retryable_journal_error(&error) && attempt < JOURNAL_CAS_RETRIES => continue,
            result => return result,
        }
    }
    Err(StoreError::other("journal update retries exhausted"))
}
