using Polly;
using Polly.Extensions.Http;
using Shop.Common;

// The retry count is another class's constant: 8 retries, 9 attempts,
// over the default threshold of 5.
public static class CatalogPolicies
{
    public static IAsyncPolicy<HttpResponseMessage> Retry() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .WaitAndRetryAsync(
                RetrySettings.MaxRetries,
                attempt => TimeSpan.FromSeconds(Math.Pow(RetrySettings.BackoffSeconds, attempt)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 100)));
}
