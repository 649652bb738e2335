// A serializable transaction run again when the database reports a
// serialization failure (another transaction won the race): a conflict,
// it ends when this transaction wins. Other errors reconnect at most three
// times, then the function gives up.
use std::time::Duration;

pub async fn run_serializable<T>(conn: &mut PgConn, work: Work<T>, reconnect_wait: Duration) -> Result<T, Error> {
    let mut reconnects = 0;
    loop {
        match conn.transaction().serializable().run(work.clone()).await {
            Ok(value) => break Ok(value),
            Err(Error::DatabaseError(DatabaseErrorKind::SerializationFailure, detail)) => {
                tracing::warn!(?detail, "serialization failure, running the transaction again");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Err(error) if reconnects < 3 => {
                tracing::error!(?error, "unexpected error, reconnecting");
                reconnects += 1;
                tokio::time::sleep(reconnect_wait).await;
                *conn = PgConn::connect().await?;
            }
            Err(error) => return Err(error),
        }
    }
}
