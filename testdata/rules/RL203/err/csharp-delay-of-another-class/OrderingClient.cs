using Polly;
using Polly.Retry;
using Ordering.Infrastructure;

// A fixed wait of `RetryOptions.DelaySeconds` (3 s, another class's
// constant) before each of 4 retries, with no jitter.
public class OrderingClient
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            MaxRetryAttempts = RetryOptions.Count,
            Delay = TimeSpan.FromSeconds(RetryOptions.DelaySeconds),
            BackoffType = DelayBackoffType.Constant,
        })
        .Build();
}
