using Polly;
using Polly.Retry;

// From kallebelins/mvp24hours-dotnet (NativeResiliencePipeline.cs): the
// delay, backoff and jitter come from the application's options, so
// Polly's defaults (constant 2 s, no jitter) do not apply and nothing
// says the delay is unjittered.
public sealed class NativeResiliencePipeline<TResult>(NativeResilienceOptions options)
{
    public ResiliencePipeline<TResult> BuildPipeline()
    {
        var builder = new ResiliencePipelineBuilder<TResult>();
        var retryOptions = new RetryStrategyOptions<TResult>
        {
            MaxRetryAttempts = options.RetryMaxAttempts,
            Delay = options.RetryDelay,
            MaxDelay = options.RetryMaxDelay,
            UseJitter = options.RetryUseJitter,
            BackoffType = ConvertBackoffType(options.RetryBackoffType),
            ShouldHandle = new PredicateBuilder<TResult>().Handle<TimeoutException>(),
        };
        builder.AddRetry(retryOptions);
        return builder.Build();
    }
}
