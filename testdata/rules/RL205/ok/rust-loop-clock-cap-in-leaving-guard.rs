// The failure arm leaves once the clock runs out (`Err(err) if
// start.elapsed() > MAX_DELAY => return Err(err)`): the loop is bounded
// by time (symbolicator's GKE token provider, fifteenth pass).
use std::time::{Duration, Instant};

pub async fn token_provider() -> Result<Provider, Error> {
    const MAX_DELAY: Duration = Duration::from_secs(60);
    let start = Instant::now();
    loop {
        match gcp_auth::provider().await {
            Ok(p) => break Ok(p),
            Err(err) if start.elapsed() > MAX_DELAY => return Err(err),
            Err(err) => {
                tracing::warn!("token provider not ready: {err}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}
