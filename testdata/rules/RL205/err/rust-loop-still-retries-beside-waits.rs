// Still retries, beside the shapes of a wait or a walk: a full local
// queue goes round beside a failed remote call, and an attempt counter
// moved on before `continue` is compared with nothing and handed to no
// call; neither loop has a limit.
async fn publish(producer: &Producer, msg: Msg) {
    loop {
        match producer.send(msg.clone()).await {
            Ok(_) => return,
            Err(PublishError::QueueFull) => {}
            Err(PublishError::Broker(e)) => tracing::warn!("broker error: {e}"),
        }
        sleep(Duration::from_millis(50)).await;
    }
}

async fn read_from(log: &LogClient, start: u64) -> Result<Record, Error> {
    let mut attempt = 0;
    loop {
        match log.read_record(start).await {
            Ok(rec) => return Ok(rec),
            Err(e) => {
                tracing::warn!(attempt, "read failed, retrying: {e}");
                attempt += 1;
                sleep(Duration::from_millis(100)).await;
                continue;
            }
        }
    }
}
