use backon::{ExponentialBuilder, Retryable};

fn retry_policy() -> ExponentialBuilder {
    ExponentialBuilder::default().with_jitter().with_max_times(3)
}
