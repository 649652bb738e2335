using Polly;
using Polly.Retry;

// From kallebelins/mvp24hours-dotnet (NativeResilienceBehavior.cs):
// `Handle<Exception>(ex => ..)` retries only what the filter accepts, not
// every exception.
public static class Pipelines
{
    public static ResiliencePipeline Build(Func<Exception, bool> transient) =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = 3,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
                ShouldHandle = new PredicateBuilder().Handle<Exception>(ex => transient(ex)),
            })
            .Build();

    public static ISyncPolicy V7() =>
        Policy.Handle<Exception>(ex => ex is TimeoutException)
            .WaitAndRetry(3, a => TimeSpan.FromSeconds(a) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 200)));
}
