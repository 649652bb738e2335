// A tower service's `poll_ready` that loops over a circuit breaker's
// states: each pass moves the state on (Open -> HalfOpen -> Closed) and
// parks with `ready!`; no call is repeated, so this is no retry loop.
impl<S, Req> Service<Req> for HealthService<S> {
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        loop {
            self.state = match self.state {
                CircuitState::Open(ref mut timer) => {
                    ready!(timer.as_mut().poll(cx));
                    CircuitState::HalfOpen
                }
                CircuitState::HalfOpen => return self.inner.poll_ready(cx).map_err(Into::into),
                CircuitState::Closed => match self.counters.healthy() {
                    Ok(_) => return self.inner.poll_ready(cx).map_err(Into::into),
                    Err(errors) if errors >= UNHEALTHY => {
                        CircuitState::Open(sleep(self.backoff.next().expect("never ends")).boxed())
                    }
                    Err(_) => return self.inner.poll_ready(cx).map_err(Into::into),
                },
            }
        }
    }
}
