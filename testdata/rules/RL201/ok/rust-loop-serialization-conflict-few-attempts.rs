// A serializable transaction run again, at once, only when Postgres
// answers `SerializationFailure` (SQLSTATE 40001: another transaction
// won), at most 4 times; every other error leaves. A write conflict ends
// when this writer wins, and a few conflict retries need no delay
// (RL201's exemption of at most 10 attempts). The count sits in the
// conflict arm itself (neondatabase/neon storage controller `with_conn`,
// which allows 128 and stays reported).
const MAX_RETRIES: u32 = 3;

pub async fn with_conn(pool: &Pool) -> Result<u64, DatabaseError> {
    let mut retry_count = 0;
    loop {
        let mut conn = pool.get().await?;
        match conn.build_transaction().serializable().run(|c| work(c)).await {
            Ok(r) => break Ok(r),
            Err(
                err @ DatabaseError::Query(Error::DatabaseError(
                    DatabaseErrorKind::SerializationFailure,
                    _,
                )),
            ) => {
                retry_count += 1;
                if retry_count > MAX_RETRIES {
                    break Err(err);
                }
                continue;
            }
            Err(e) => break Err(e),
        }
    }
}
