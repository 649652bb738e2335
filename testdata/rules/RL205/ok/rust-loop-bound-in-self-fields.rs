// Bounds held in `self` fields (risingwave hummock compactor): the counter
// `self.io_retry_times` counts up to `self.max_io_retry_times`, written in
// the leaving test itself or in a method of the same impl.
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

    pub async fn next_block(&mut self) -> HummockResult<Option<Bytes>> {
        loop {
            match self.stream.next_block().await {
                Ok(block) => return Ok(block),
                Err(e) => {
                    if !e.is_object_error() || !self.need_recreate_io_stream() {
                        return Err(e);
                    }
                    self.stream = self.sstable_store.get_stream(self.id).await?;
                    self.io_retry_times += 1;
                }
            }
        }
    }

    fn need_recreate_io_stream(&self) -> bool {
        self.io_retry_times < self.max_io_retry_times
    }
}
