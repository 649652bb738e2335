// The crate's own `Outcome` trait says whether a value is a success
// (`Result`, `Option`, `bool`): `value.is_success()` is no HTTP status
// test, so no status (client errors or 429) is read from it.
use std::future::Future;
use std::time::Duration;

pub trait Backoff {
    fn next_delay(&mut self) -> Option<Duration>;
}

pub trait Outcome {
    fn is_success(&self) -> bool;
}

impl<T, E> Outcome for Result<T, E> {
    fn is_success(&self) -> bool {
        self.is_ok()
    }
}

impl Outcome for bool {
    fn is_success(&self) -> bool {
        *self
    }
}

pub async fn retry<S, F, T, Fut>(mut backoff: S, mut op: F) -> T
where
    S: Backoff,
    F: FnMut() -> Fut,
    T: Outcome,
    Fut: Future<Output = T>,
{
    loop {
        let outcome = op().await;

        if outcome.is_success() {
            return outcome;
        }

        match backoff.next_delay() {
            Some(wait) => tokio::time::sleep(wait).await,
            None => return outcome,
        }
    }
}
