// A `backoff` crate default that is replaced before it is used is not the
// policy: the commit sink starts with `ExponentialBackoff::default()` (15
// minutes of `max_elapsed_time`, about 25 attempts) and sets its real
// back-off when a commit starts (`self.backoff = set_backoff(..)`, built in
// another module). The same for a local: `backoff = make_backoff(..)`
// replaces the default before `retry` uses it.
use std::time::Duration;

use backoff::ExponentialBackoff;
use backoff::backoff::Backoff;

use crate::operations::make_backoff;
use crate::operations::set_backoff;

pub struct CommitSink {
    backoff: ExponentialBackoff,
    max_retry_elapsed: Option<Duration>,
}

impl CommitSink {
    pub fn try_create(max_retry_elapsed: Option<Duration>) -> Self {
        CommitSink {
            backoff: ExponentialBackoff::default(),
            max_retry_elapsed,
        }
    }

    fn start_commit(&mut self) {
        self.backoff = set_backoff(None, None, self.max_retry_elapsed);
    }

    async fn on_conflict(&mut self) -> Result<(), Error> {
        match self.backoff.next_backoff() {
            Some(d) => {
                tokio::time::sleep(d).await;
                Ok(())
            }
            None => Err(Error::TooManyRetries),
        }
    }
}

pub async fn commit_with_retry(limit: Duration) -> Result<(), Error> {
    let mut backoff = ExponentialBackoff::default();
    backoff = make_backoff(limit);
    backoff::future::retry(backoff, || async { commit().await.map_err(transient) }).await
}
