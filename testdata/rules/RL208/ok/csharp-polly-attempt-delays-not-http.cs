// A Polly v8 retry of a queue publish: no HTTP response, no Retry-After.
using Polly;
using Polly.Retry;

public static class Pipelines
{
    public static ResiliencePipeline Build() =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = 3,
                ShouldHandle = new PredicateBuilder().Handle<IOException>(),
                DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(TimeSpan.FromSeconds(Math.Pow(2, args.AttemptNumber)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 500))),
            })
            .Build();
}
