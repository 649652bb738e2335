using Polly;
using Polly.Contrib.WaitAndRetry;

// `DecorrelatedJitterBackoffV2` randomises every delay around a median
// that doubles from 1 s; `AwsDecorrelatedJitterBackoff` draws each delay
// between the minimum and three times the last, up to 10 s.
public static class CatalogPolicies
{
    public static IAsyncPolicy<HttpResponseMessage> Retry() =>
        Policy<HttpResponseMessage>
            .Handle<HttpRequestException>()
            .WaitAndRetryAsync(Backoff.DecorrelatedJitterBackoffV2(medianFirstRetryDelay: TimeSpan.FromSeconds(1), retryCount: 3));

    public static IAsyncPolicy<HttpResponseMessage> RetryAws() =>
        Policy<HttpResponseMessage>
            .Handle<HttpRequestException>()
            .WaitAndRetryAsync(Backoff.AwsDecorrelatedJitterBackoff(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(10), 3));
}
