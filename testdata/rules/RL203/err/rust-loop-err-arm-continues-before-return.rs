// An `Err` arm that goes round through an `if .. { continue }` before its
// `return` (a shape of apache/iggy's TCP client: `if !enabled { return
// Err(e) }` first, then `if retries < max { sleep; continue }`): the arm
// does not simply leave, it is the failure path going round. main read
// the first `return` as the arm leaving and took no loop. The second loop
// retries transient errors for ever, a fixed 1 s apart.
use std::time::Duration;
pub async fn send(c: &Client, enabled: bool) -> Result<(), Error> {
    let mut retries = 0;
    loop {
        match c.send().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                if !enabled {
                    return Err(e);
                }
                if retries < 3 {
                    retries += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
pub async fn send2(c: &Client) -> Result<(), Error> {
    loop {
        match c.send().await {
            Ok(()) => return Ok(()),
            Err(e) => {
                if e.is_transient() {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
}
