// Each loop's attempt reaches another machine by evidence the reader
// finds: a name imported from a network crate, a call on a client handed
// in as a parameter (`svc: &InventoryClient`), a URL handed to the call,
// a rate-limit failure tested, a function of this file that sends a
// request, and a retry helper calling the operation its caller hands it.
// RL102 fires where every error goes round (the first, second, fourth and
// the helper, whose `Err(e) if attempt >= max` arm is its bound, not a
// sorting).
use sqlx::PgPool;
use std::time::Duration;

async fn connect_db(url: &str) -> PgPool {
    loop {
        match PgPool::connect(url).await {
            Ok(p) => return p,
            Err(e) => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
}

async fn sync(svc: &InventoryClient) -> Result<(), Error> {
    for _ in 0..3 {
        if svc.sync_all().await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Err(Error::GaveUp)
}

async fn invalidate(cdn: &Cdn, paths: &[String]) -> Result<(), CdnError> {
    let mut attempt = 0;
    loop {
        let Err(e) = cdn.invalidate(paths).await else {
            return Ok(());
        };
        if !e.is_too_many_requests() || attempt >= 4 {
            return Err(e);
        }
        attempt += 1;
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
}

async fn refresh(state: &State) -> Result<(), Error> {
    for _ in 0..3 {
        match state.refresh_prices().await {
            Ok(()) => return Ok(()),
            Err(_) => tokio::time::sleep(Duration::from_secs(2)).await,
        }
    }
    Err(Error::GaveUp)
}

impl State {
    async fn refresh_prices(&self) -> Result<(), Error> {
        let prices = self.http.get(PRICES).send().await?;
        self.store(prices).await
    }
}

pub fn retry_op<T>(mut op: impl FnMut() -> Result<T, Error>, max: u32) -> Result<T, Error> {
    let mut attempt = 0;
    loop {
        match op() {
            Ok(v) => return Ok(v),
            Err(e) if attempt >= max => return Err(e),
            Err(_) => {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}
