use backon::ExponentialBuilder;

fn retry_policy() -> ExponentialBuilder {
    ExponentialBuilder::default().with_max_times(3
}
