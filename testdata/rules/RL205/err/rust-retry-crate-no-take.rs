// The `retry` crate: a delay iterator without `.take(n)` never runs out, so
// `retry` goes round for as long as the operation fails (retry 2.2.0
// src/lib.rs: it gives up only when the iterator ends).
use retry::delay::{jitter, Exponential};
use retry::retry;

fn connect(addr: &str) -> Result<Conn, retry::Error<io::Error>> {
    retry(Exponential::from_millis(100).map(jitter), || Conn::open(addr))
}
