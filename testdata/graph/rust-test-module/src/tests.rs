use super::*;

#[tokio::test]
async fn charges_with_retries() {
    let client = reqwest::Client::new();
    let mut attempt = 0;
    loop {
        attempt += 1;
        match client.post("http://mock-payments:1/charge").send().await {
            Ok(_) => break,
            Err(_) if attempt < 20 => std::thread::sleep(std::time::Duration::from_millis(100)),
            Err(e) => panic!("{e}"),
        }
    }
}
