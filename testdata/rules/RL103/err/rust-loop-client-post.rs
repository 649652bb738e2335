// A POST sent again after any error, a timeout or a reset after the body
// went out included: the order may be placed twice.
use std::time::Duration;

async fn place_order(client: &reqwest::Client, order: &Order) -> Result<Receipt, Error> {
    let mut attempt = 0;
    loop {
        match client.post("http://orders/orders").json(order).send().await {
            Ok(r) => return Ok(r.json().await?),
            Err(e) if attempt < 3 => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(100 * attempt)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}
