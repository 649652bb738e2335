// The server's wait, capped at 30 s and with up to a second at random on
// top.
using Polly;
using Polly.Retry;

public static class Pipelines
{
    public static ResiliencePipeline<HttpResponseMessage> Build() =>
        new ResiliencePipelineBuilder<HttpResponseMessage>()
            .AddRetry(new RetryStrategyOptions<HttpResponseMessage>
            {
                MaxRetryAttempts = 3,
                ShouldHandle = args => ValueTask.FromResult(args.Outcome.Result?.StatusCode == HttpStatusCode.TooManyRequests),
                DelayGenerator = args =>
                {
                    var wait = args.Outcome.Result?.Headers.RetryAfter?.Delta ?? TimeSpan.FromSeconds(1);
                    var capped = TimeSpan.FromMilliseconds(Math.Min(wait.TotalMilliseconds, 30_000));
                    return ValueTask.FromResult<TimeSpan?>(capped + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 1000)));
                },
            })
            .Build();
}
