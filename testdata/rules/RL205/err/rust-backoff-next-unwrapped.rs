// The loop takes its delay from a back-off but unwraps it
// (`.expect("backoff iterator always returns some value")`): the back-off
// never ends the loop, only success does, so it retries for ever. rustfmt
// splits the chain over lines; both forms read the same.
pub async fn connect_with_timeout(&self, timeout_duration: Duration) -> Stream {
    let mut backoff = self.backoff();
    loop {
        match time::timeout(timeout_duration, self.connect()).await {
            Ok(Ok(stream)) => return stream,
            Ok(Err(error)) => warn!(%error, "connection failed"),
            Err(_) => warn!("connection timed out"),
        }
        time::sleep(
            backoff
                .next()
                .expect("backoff iterator always returns some value"),
        )
        .await;
    }
}

pub async fn connect(&self) -> Stream {
    let mut backoff = self.backoff();
    loop {
        match self.connect_once().await {
            Ok(stream) => return stream,
            Err(error) => {
                warn!(%error, "connection failed");
                time::sleep(backoff.next().unwrap()).await;
            }
        }
    }
}
