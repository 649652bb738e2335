// Only object-store errors go round (risingwave `fast_compactor_runner.rs`):
// `!e.is_object_error() || ..` leaves on every other error: a predicate,
// even beside the bound in the same test.
impl BlockStreamIterator {
    pub async fn download_next_block(&mut self) -> HummockResult<Option<Bytes>> {
        loop {
            let ret = match &mut self.block_stream {
                Some(s) => s.next_block().await,
                None => {
                    self.create_stream().await?;
                    continue;
                }
            };
            match ret {
                Ok(Some(data)) => return Ok(Some(data)),
                Ok(None) => break,
                Err(e) => {
                    if !e.is_object_error() || self.io_retry_times >= self.max_io_retry_times {
                        return Err(e);
                    }
                    self.block_stream.take();
                    self.io_retry_times += 1;
                    tracing::warn!("retry create stream {} times", self.io_retry_times);
                }
            }
        }
        Ok(None)
    }
}
