using System.Net.Http;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;

public static class Pipelines
{
    public static ResiliencePipeline Build() =>
        new ResiliencePipelineBuilder()
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions())
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<HttpRequestException>(),
                MaxRetryAttempts = 3,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
            })
            .Build();
}
