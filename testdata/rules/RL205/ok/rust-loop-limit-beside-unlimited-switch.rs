// A configured limit beside the switch that lifts it (apache/iggy's TCP
// client): `max_retries: None` is the user asking for no limit; otherwise
// `retry_count < max_retries` in the `if` that goes round bounds the
// reconnection.
impl TcpClient {
    async fn connect(&self) -> Result<(), Error> {
        let mut retry_count = 0;
        let stream: TcpStream;
        loop {
            let server_address = self.server_address.lock().await.clone();
            let connection = TcpStream::connect(&server_address).await;
            if let Err(err) = &connection {
                error!("Failed to connect to server: {server_address}. Error: {err}");
                if !self.config.reconnection.enabled {
                    return Err(Error::CannotEstablishConnection);
                }
                let unlimited_retries = self.config.reconnection.max_retries.is_none();
                let max_retries = self.config.reconnection.max_retries.unwrap_or_default();
                if unlimited_retries || retry_count < max_retries {
                    retry_count += 1;
                    sleep(self.config.reconnection.interval).await;
                    continue;
                }
                self.set_state(State::Disconnected).await;
                return Err(Error::CannotEstablishConnection);
            }
            let s = connection.map_err(|_| Error::CannotEstablishConnection)?;
            if let Err(e) = s.set_nodelay(self.config.nodelay) {
                error!("Failed to set the nodelay option on the client: {e}, continuing...");
            }
            if !self.config.tls_enabled {
                stream = s;
                break;
            }
            stream = self.tls.connect(s).await.map_err(|_| Error::CannotEstablishConnection)?;
            break;
        }
        self.stream.lock().await.replace(stream);
        Ok(())
    }
}
