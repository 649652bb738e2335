// The builder is bound first and given its jitter in a branch on a
// setting whose default is on (`with_jitter: true`): the builder used is
// the jittered one, not the one bound first. backon's own default has no
// jitter (Xuanwo/backon backon/src/backoff/exponential.rs,
// `ExponentialBuilder::new` sets `jitter: false`, commit d0cb836); the
// setting and its default are the project's. Seen wrong on influxdb's
// retryable object store (docs/loop-review.md fourth pass).

use backon::{ExponentialBuilder, Retryable};
use std::time::Duration;

pub struct RetryParams {
    pub max_retries: usize,
    pub with_jitter: bool,
}

impl Default for RetryParams {
    fn default() -> Self {
        Self {
            max_retries: 3,
            with_jitter: true,
        }
    }
}

impl RetryParams {
    fn exponential_builder(&self) -> ExponentialBuilder {
        let retry_builder = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(100))
            .with_max_delay(Duration::from_secs(10))
            .with_max_times(self.max_retries);

        if self.with_jitter {
            retry_builder.with_jitter()
        } else {
            retry_builder
        }
    }
}
