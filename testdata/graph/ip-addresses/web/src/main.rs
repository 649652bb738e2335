async fn orders() -> reqwest::Result<String> {
    reqwest::get("http://10.5.0.5:8080/api/orders").await?.text().await
}

async fn payments() -> reqwest::Result<String> {
    reqwest::get("http://[fd00::9]:9000/pay").await?.text().await
}

#[tokio::main]
async fn main() {
    let _ = orders().await;
    let _ = payments().await;
}
