// Backpressure, not a retry at once (risingwave sink/kafka.rs
// `send_result`): on `QueueFull` the loop awaits an outstanding delivery,
// which frees queue space, before it enqueues the record again.
async fn send_result<'a>(&'a mut self, mut record: FutureRecord<'a, [u8], [u8]>) -> Result<()> {
    for i in 0..self.config.max_retry_num {
        match self.inner.send_result(record) {
            Ok(delivery_future) => {
                self.add_future.add_future_may_await(delivery_future).await?;
                break;
            }
            Err((e, rec)) => match e {
                KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull) => {
                    record = rec;
                    tracing::warn!(retry = i, "producer queue is full, awaiting a delivery before retry");
                    self.add_future.await_one_delivery().await?;
                    continue;
                }
                _ => return Err(e.into()),
            },
        }
    }
    Ok(())
}
