// The clock bounds the loop from the guard of the arm that goes round
// (apache/iggy's QUIC client): a "not committed yet" answer is sent again
// only while `Instant::now() < deadline`; once it has passed, the last arm
// hands the error back.
use std::time::Duration;

const RESPONSE_READ_TIMEOUT: Duration = Duration::from_secs(10);
const NOT_READY_RETRY_INTERVAL: Duration = Duration::from_millis(50);

pub async fn send(connection: &Connection, payload: &[u8]) -> Result<Bytes, Error> {
    let deadline = tokio::time::Instant::now() + RESPONSE_READ_TIMEOUT;
    loop {
        let (mut send, mut recv) = connection.open_bi().await?;
        send.write_all(payload).await?;
        match read_response(&mut recv).await {
            Ok(reply) => return Ok(reply),
            Err(Error::TransientNotCommitted) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(NOT_READY_RETRY_INTERVAL).await;
            }
            Err(error) => return Err(error),
        }
    }
}
