// The only client-like name is in the arm that runs once after success
// (`session.set_tun(tun); return`): the attempt (`Tun::new`) opens a local
// device, so the loop is no retry of a remote operation (firezone's
// client FFI, sixteenth pass).
use std::time::Duration;

pub fn set_tun_from_search(session: &Session) -> Result<(), Error> {
    let mut last_error = None;
    for attempt in 1..=5 {
        match Tun::new(session.handle()) {
            Ok(tun) => {
                session.set_tun(Box::new(tun));
                return Ok(());
            }
            Err(e) => {
                tracing::warn!("attempt {attempt} failed: {e}");
                last_error = Some(e);
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
    Err(last_error.unwrap_or(Error::NoAttempt))
}
