// A test module in its own file (declared `#[cfg(test)] mod tests;` by its
// parent): its wait loops are test helpers, not service code.
use super::*;
use std::time::Duration;

fn must_wait(client: &Client) {
    loop {
        match client.status() {
            Ok(s) if s.ready => break,
            _ => {}
        }
        if let Err(e) = client.poke() {
            log(e);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn waits_for_ready() {
    let c = Client::new();
    must_wait(&c);
}
