// The attempt counter is handed by `&mut` to a method that counts and
// decides (apache/iggy's WebSocket client): once the limit is spent it
// answers the error that leaves the loop; every other error goes round.
impl Client {
    pub async fn connect(&self) -> Result<Stream, Error> {
        let mut retry_count = 0;
        loop {
            if retry_count > 0 {
                tokio::time::sleep(self.interval).await;
            }
            let stream = match self.connect_plain(&self.address, &mut retry_count).await {
                Ok(stream) => stream,
                Err(Error::CannotEstablishConnection) => {
                    return Err(Error::CannotEstablishConnection);
                }
                Err(_) => continue,
            };
            return Ok(stream);
        }
    }

    async fn connect_plain(&self, address: &str, retry_count: &mut u32) -> Result<Stream, Error> {
        match TcpStream::connect(address).await {
            Ok(s) => Ok(Stream::new(s)),
            Err(_) => self.handle_connection_error(retry_count).await,
        }
    }

    async fn handle_connection_error(&self, retry_count: &mut u32) -> Result<Stream, Error> {
        if *retry_count < self.max_retries {
            *retry_count += 1;
            return Err(Error::Retry);
        }
        Err(Error::CannotEstablishConnection)
    }
}
