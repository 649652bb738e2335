async fn charge(client: &reqwest::Client) -> reqwest::Result<String> {
    // Calls `payments`; a doc link is no call: https://docs.rs/reqwest
    client
        .post("http://payments:8080/charge")
        .send()
        .await?
        .text()
        .await
}

#[tokio::main]
async fn main() {
    let client = reqwest::Client::new();
    if let Err(e) = charge(&client).await {
        eprintln!("charge failed, see http://status-page:80/ : {e}");
    }
}

#[cfg(test)]
mod tests;
