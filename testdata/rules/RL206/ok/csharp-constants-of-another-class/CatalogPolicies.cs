using Polly;
using Polly.Extensions.Http;
using Shop.Common;

// 3 retries from another class's constant: 4 attempts. `Limits.MaxRetries`
// is declared by two types of that name with two values (12 and 2), so
// it stays unknown.
public static class CatalogPolicies
{
    public static IAsyncPolicy<HttpResponseMessage> Retry() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .WaitAndRetryAsync(RetrySettings.MaxRetries, attempt => TimeSpan.FromSeconds(Math.Pow(2, attempt)));

    public static IAsyncPolicy Orders() =>
        Policy.Handle<HttpRequestException>().WaitAndRetryAsync(Limits.MaxRetries, _ => TimeSpan.FromSeconds(1));
}
