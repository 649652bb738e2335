// retry 1.x: `Exponential::from_millis(10)` multiplies by its base, 10
// (retry 1.3.1 src/delay/mod.rs: `factor: base as f64`): 10 ms, 100 ms,
// 1 s, 10 s, 100 s, with no deadline over them. The Cargo.lock beside
// says 1.3.1; on 2.x the same line waits 310 ms in all (the ok twin).
use retry::delay::Exponential;
use retry::retry;

pub fn fetch(url: &str) -> Result<Vec<u8>, retry::Error<io::Error>> {
    retry(Exponential::from_millis(10).take(5), || download(url))
}
