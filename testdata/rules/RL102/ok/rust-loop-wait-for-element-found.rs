// A lookup polled until what it looks for is there (`find_element(..)
// .await.is_ok()`): its failure means "not found yet", so each pass looks
// again for a state, it does not retry a failed call (openobserve's wait
// for a rendered page element in a headless browser, under a time limit).
use std::time::{Duration, Instant};
use tokio::time::sleep;

async fn wait_for_panel_data_load(page: &Page) -> Result<(), Error> {
    let start = Instant::now();
    let timeout = Duration::from_secs(30);
    loop {
        if page.find_element("span#loaded").await.is_ok() {
            return Ok(());
        }
        if start.elapsed() >= timeout {
            return Err(Error::NotRendered);
        }
        sleep(Duration::from_secs(1)).await;
    }
}
