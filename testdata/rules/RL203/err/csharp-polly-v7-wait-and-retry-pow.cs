using System.Net.Http;
using Polly;
using Polly.Extensions.Http;

public static class Policies
{
    // 2, 4, 8 s after each failure, identical on every client.
    public static IAsyncPolicy<HttpResponseMessage> GetRetryPolicy() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .WaitAndRetryAsync(3, retryAttempt => TimeSpan.FromSeconds(Math.Pow(2, retryAttempt)));
}
