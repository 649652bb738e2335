// The loop asks its back-off for the next delay (`backoff.next()`), so the
// back-off decides when to stop, as on one line. rustfmt splits the chain
// over lines; the reader must read it the same way.
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
