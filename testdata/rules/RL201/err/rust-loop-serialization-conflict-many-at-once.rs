// A serializable transaction run again at once on `SerializationFailure`
// alone, up to 129 times: the losers of a conflict go round together and
// the work grows with the writers (RL201's doc); past 10 attempts the
// few-conflicts exemption does not apply (neondatabase/neon storage
// controller `with_conn`, `MAX_RETRIES = 128`).
const MAX_RETRIES: u32 = 128;

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
