use std::time::Duration;

pub async fn upload_report(store: &Store, report: &Report) -> Result<(), Error> {
    let mut wait = Duration::from_secs(3);
    for _ in 0..11 {
        match store.put(report).await {
            Ok(()) => return Ok(()),
            Err(_) => {
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
        }
    }
    Err(Error::GaveUp)
}
