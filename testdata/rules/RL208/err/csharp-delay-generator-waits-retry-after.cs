// A Polly v8 `DelayGenerator` that waits the `Retry-After` delta as it
// is: no cap, no jitter on top.
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
                DelayGenerator = args => ValueTask.FromResult(args.Outcome.Result?.Headers.RetryAfter?.Delta),
            })
            .Build();
}
