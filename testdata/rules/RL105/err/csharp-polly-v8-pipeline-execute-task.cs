using Polly;
using Polly.Retry;

// A Polly v8 pipeline run with the synchronous `Execute` on a task: the
// retry strategy sees a task come back, not an exception.
public class Orders
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<TimeoutException>(),
            MaxRetryAttempts = 3,
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,
        })
        .Build();

    public Task Save(IOrderRepository orders, Order order) =>
        _pipeline.Execute(() => orders.SaveAsync(order));
}
