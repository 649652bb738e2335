use std::time::Duration;

const CATALOG: &str = "http://catalog:3550";

struct Clients {
    http: reqwest::Client,
    base: String,
}

async fn connect(host: &str) -> Result<(), Box<dyn std::error::Error>> {
    let _stock = tonic::transport::Channel::from_static("http://stock:50051")
        .connect()
        .await?;
    let _prices = tonic::transport::Endpoint::from_shared("http://prices:50052".to_string())?
        .timeout(Duration::from_secs(2))
        .connect()
        .await?;
    // The host is only known at run time: listed, not guessed.
    let _dyn = tonic::transport::Endpoint::from_shared(format!("http://{host}:50053"))?;
    let c = Clients {
        http: reqwest::Client::new(),
        base: CATALOG.to_string(),
    };
    c.http.get(format!("{}/products", c.base)).send().await?;
    Ok(())
}

fn main() {}
