// The `retry` crate bounded by `.take(n)`: n retries, then the last error.
use retry::delay::{jitter, Exponential, Fixed};
use retry::{retry, OperationResult};

fn connect(addr: &str) -> Result<Conn, retry::Error<io::Error>> {
    retry(Exponential::from_millis(100).map(jitter).take(4), || Conn::open(addr))
}

fn lock(path: &Path) -> Result<Lock, retry::Error<io::Error>> {
    let delays = Fixed::from_millis(50).map(jitter).take(10);
    retry::retry(delays, || match Lock::acquire(path) {
        Ok(l) => OperationResult::Ok(l),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => OperationResult::Retry(e),
        Err(e) => OperationResult::Err(e),
    })
}
