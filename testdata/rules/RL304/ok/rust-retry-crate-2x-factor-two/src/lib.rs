// retry 2.x: `Exponential::from_millis(10)` doubles (retry 2.2.0
// src/delay/mod.rs, factor 2 since 0900ff8): 10 + 20 + 40 + 80 + 160 ms,
// 310 ms in all. The Cargo.lock beside says 2.2.0 (the err twin, 1.3.1,
// waits 111 s).
use retry::delay::Exponential;
use retry::retry;

pub fn fetch(url: &str) -> Result<Vec<u8>, retry::Error<io::Error>> {
    retry(Exponential::from_millis(10).take(5), || download(url))
}
