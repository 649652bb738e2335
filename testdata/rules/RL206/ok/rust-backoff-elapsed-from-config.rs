// The `backoff` crate's `ExponentialBackoff` written as a struct update:
// the fields written are the policy, the rest come from the default. A
// `max_elapsed_time` read from configuration is not the default's 15
// minutes (about 25 attempts), and the `..ExponentialBackoff::default()`
// base is part of the struct, not a second policy with the default's
// count.
use std::time::Duration;

use backoff::ExponentialBackoff;

pub async fn upload(config: &Config, part: &Part) -> Result<(), Error> {
    let policy = ExponentialBackoff {
        max_elapsed_time: config.retry_timeout,
        ..Default::default()
    };
    backoff::future::retry(policy, || async {
        put(part).await.map_err(backoff::Error::transient)
    })
    .await
}

pub async fn commit(config: &Config) -> Result<(), Error> {
    let policy = ExponentialBackoff {
        max_elapsed_time: Some(Duration::from_millis(500)),
        initial_interval: Duration::from_millis(100),
        ..ExponentialBackoff::default()
    };
    backoff::future::retry(policy, || async {
        send(config).await.map_err(backoff::Error::transient)
    })
    .await
}

// The same through the builder: `Some(..)` of a number from the options is
// a written elapsed-time cap the file does not show, not the default's.
pub async fn retry_connect_errors(opts: &ConnectOpts) -> Result<Conn, Error> {
    backoff::future::retry(
        backoff::ExponentialBackoffBuilder::new()
            .with_max_elapsed_time(Some(Duration::from_secs(opts.connect_timeout)))
            .build(),
        || async { connect(opts).await.map_err(backoff::Error::transient) },
    )
    .await
}
