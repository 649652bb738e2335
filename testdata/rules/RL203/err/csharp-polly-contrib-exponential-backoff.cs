using Polly;
using Polly.Contrib.WaitAndRetry;
using Polly.Extensions.Http;

// Polly.Contrib.WaitAndRetry's `ExponentialBackoff` doubles from 200 ms
// with no randomness: clients that failed together retry together. Read
// through a local, with an `onRetry` callback after it, and from a method
// of the class (a `.ToList()` kept).
public static class CatalogPolicies
{
    public static IAsyncPolicy<HttpResponseMessage> Retry()
    {
        var delays = Backoff.ExponentialBackoff(TimeSpan.FromMilliseconds(200), retryCount: 3);
        return Policy<HttpResponseMessage>
            .Handle<HttpRequestException>()
            .WaitAndRetryAsync(delays, (outcome, wait, attempt, context) => Log.Warning("retry {Attempt}", attempt));
    }

    private static IEnumerable<TimeSpan> Delays() =>
        Backoff.ExponentialBackoff(TimeSpan.FromSeconds(1), 4, factor: 1.5).ToList();

    public static IAsyncPolicy RetryOrders() =>
        Policy.Handle<TimeoutException>().WaitAndRetryAsync(Delays());
}
