// The loop's bound is a retry object's own: the arm that takes the kept
// `Retry` asks whether its attempts are spent
// (`retry.max_retries_reached()`) and returns the last error then
// (mongodb/mongo-rust-driver `execute_operation_with_retry`, seventeenth
// pass). How many attempts that allows is the object's to say; the loop is
// not unbounded.
use std::time::Duration;

struct Retry {
    attempts: u32,
    max: u32,
    error: std::io::Error,
}

impl Retry {
    fn max_retries_reached(&self) -> bool {
        self.attempts >= self.max
    }
}

pub async fn execute(client: &reqwest::Client, url: &str) -> Result<String, std::io::Error> {
    let mut retry: Option<Retry> = None;
    loop {
        match retry {
            Some(ref r) if r.max_retries_reached() => {
                return Err(std::io::Error::other(r.error.to_string()));
            }
            Some(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            None => {}
        }
        match client.get(url).send().await {
            Ok(resp) => return resp.text().await.map_err(std::io::Error::other),
            Err(e) => {
                let attempts = retry.as_ref().map_or(0, |r| r.attempts) + 1;
                retry = Some(Retry {
                    attempts,
                    max: 3,
                    error: std::io::Error::other(e),
                });
            }
        }
    }
}
