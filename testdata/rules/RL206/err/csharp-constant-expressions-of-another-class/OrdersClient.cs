using Polly;
using Polly.Retry;
using Shop.Common;

// The retry count is another class's constant written as an expression:
// `3 * 2` = 6 retries, 7 attempts, over the default threshold of 5.
public class OrdersClient
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<HttpRequestException>(),
            MaxRetryAttempts = RetrySettings.MaxRetries,
            Delay = TimeSpan.FromSeconds(RetrySettings.DelaySeconds),
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,
        })
        .Build();
}
