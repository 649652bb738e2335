using Polly;
using Polly.Retry;

public static class Pipelines
{
    public static ResiliencePipeline Publish() =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<System.Net.Sockets.SocketException>(),
                MaxRetryAttempts = 4,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
                Delay = TimeSpan.FromSeconds(1),
            })
            .AddTimeout(TimeSpan.FromSeconds(5))
            .Build();
}
