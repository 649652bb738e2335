// The delay is asked of a deadline type of the file (`bounded_delay`),
// which answers `None` once the elapsed time passes the timeout; the
// let-else leaves then: a time cap, not an unbounded loop.
struct RetryDeadline {
    started: Instant,
    timeout: Duration,
}

impl RetryDeadline {
    fn bounded_delay(&self, delay: Duration) -> Option<Duration> {
        let remaining = self.timeout.saturating_sub(self.started.elapsed());
        if remaining.is_zero() {
            return None;
        }
        Some(delay.min(remaining))
    }
}

async fn resolve_peer(resolver: &Resolver, host: &str, deadline: &RetryDeadline) -> Result<IpAddr> {
    let mut attempts: u32 = 0;
    loop {
        match resolver.lookup(host).await {
            Ok(ip) => return Ok(ip),
            Err(err) => {
                if !err.is_transient() {
                    return Err(err);
                }
                attempts += 1;
                let Some(delay) = deadline.bounded_delay(jittered(attempts)) else {
                    return Err(err);
                };
                tokio::time::sleep(delay).await;
            }
        }
    }
}
