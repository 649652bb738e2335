// `.map(jitter)`: retry's `jitter(d)` is `d x rand[0, 1)`, full jitter;
// a `Range` of delays is random too.
use retry::delay::{jitter, Exponential, Range};
use retry::retry;

fn fetch(url: &str) -> Result<Body, retry::Error<HttpError>> {
    retry(Exponential::from_millis(100).map(jitter).take(5), || http_get(url))
}

fn poll_peer(peer: &Peer) -> Result<State, retry::Error<PeerError>> {
    retry(Range::from_millis_exclusive(100, 900).take(5), || peer.state())
}
