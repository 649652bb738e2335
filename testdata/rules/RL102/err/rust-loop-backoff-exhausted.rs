// A match on the back-off's next delay bounds the loop; it does not sort
// errors: every error is still retried.
async fn delete_lock(catalog: &Catalog, mut backoff: Backoff) -> Result<(), Error> {
    loop {
        match catalog.delete_lock().await {
            Ok(_) => break,
            Err(e) => match backoff.next_backoff() {
                Some(d) => tokio::time::sleep(d).await,
                None => return Err(e),
            },
        }
    }
    Ok(())
}
