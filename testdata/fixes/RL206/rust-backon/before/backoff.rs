use backon::{ConstantBuilder, Retryable};

fn builder() -> ConstantBuilder {
    ConstantBuilder::default()
        .with_delay(Duration::from_millis(500))
        .with_jitter()
        .with_max_times(10)
}
