using Polly;
using Polly.Retry;
using Payments.Common;

// A fixed wait of `RetryTimings.BaseDelay` (another class's `static
// readonly TimeSpan`: 2 s from a constant) before each of 3 retries, with
// no jitter.
public class PaymentsClient
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<HttpRequestException>(),
            MaxRetryAttempts = 3,
            Delay = RetryTimings.BaseDelay,
            BackoffType = DelayBackoffType.Constant,
        })
        .Build();
}
