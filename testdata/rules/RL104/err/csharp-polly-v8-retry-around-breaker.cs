using System.Net.Http;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;

public static class Pipelines
{
    // The retry is added first, so it is outermost: when the breaker is
    // open, every attempt fails at once with BrokenCircuitException and the
    // retry (which handles every exception) spends its attempts on it.
    public static ResiliencePipeline Build() =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = 3,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
            })
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions())
            .Build();
}
