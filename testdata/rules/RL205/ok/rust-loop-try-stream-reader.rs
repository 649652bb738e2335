// A stream's read loop, not a retry (risingwave kinesis source reader.rs
// `into_data_stream`): each successful read `yield`s its records and goes
// round for the next; throttling re-creates the iterator and waits.
#[try_stream(ok = Vec<SourceMessage>, error = ConnectorError)]
async fn into_data_stream(mut self) {
    self.new_shard_iter().await?;
    loop {
        match self.get_records().await {
            Ok(resp) => {
                self.shard_iter = resp.next_shard_iterator().map(String::from);
                let chunk: Vec<SourceMessage> = resp.records().iter().map(to_message).collect();
                if self.shard_iter.is_none() {
                    break;
                }
                if chunk.is_empty() {
                    tokio::time::sleep(self.error_retry_interval).await;
                    continue;
                }
                yield chunk;
            }
            Err(SdkError::ServiceError(e)) if e.err().is_expired_iterator_exception() => {
                self.new_shard_iter().await?;
                tokio::time::sleep(self.error_retry_interval).await;
                continue;
            }
            Err(e) => {
                tracing::warn!("get_records failed, retrying: {e}");
                tokio::time::sleep(self.error_retry_interval).await;
                continue;
            }
        }
    }
}
