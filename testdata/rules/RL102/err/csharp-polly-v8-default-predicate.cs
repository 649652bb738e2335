using Polly;
using Polly.Retry;

public static class Pipelines
{
    // No ShouldHandle: Polly retries every exception but
    // OperationCanceledException, a NullReferenceException included.
    public static ResiliencePipeline Build() =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = 3,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
            })
            .Build();
}
