// The `retry` crate's `Exponential::from_millis(100)`: 100 ms, 200 ms,
// 400 ms (factor 2.0 since retry 2.0), the same for every client: no
// `.map(jitter)`.
use retry::delay::Exponential;
use retry::retry;

fn fetch(url: &str) -> Result<Body, retry::Error<HttpError>> {
    retry(Exponential::from_millis(100).take(5), || http_get(url))
}
