// The request says whether its failure may be retried; the others leave
// through `bail!` in the `else` branch: the errors are sorted (seen wrong
// on a repository outside the review set, docs/loop-review.md fourth pass).

use anyhow::{anyhow, bail, Result};

pub fn get_config(base_uri: &str, id: &str) -> Result<Config> {
    let uri = format!("{base_uri}/configs/{id}");
    let mut attempt = 1;
    while attempt < 4 {
        let result = match do_request(&uri) {
            Ok(resp) => {
                REQUESTS.with_label_values(&["get_config", "200"]).inc();
                match resp.status {
                    ConfigStatus::Empty => Ok(resp.into()),
                    ConfigStatus::Attached => {
                        if resp.spec.is_some() {
                            Ok(resp.into())
                        } else {
                            bail!("attached, but the spec is empty")
                        }
                    }
                }
            }
            Err((retry, msg, status)) => {
                REQUESTS.with_label_values(&["get_config", &status]).inc();
                if retry {
                    Err(anyhow!(msg))
                } else {
                    bail!(msg);
                }
            }
        };
        if let Err(e) = &result {
            tracing::error!("attempt {} to get the config failed: {}", attempt, e);
        } else {
            return result;
        }
        attempt += 1;
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Err(anyhow!("no config after every attempt"))
}
