using System.Net.Http;
using Polly;
using Polly.Extensions.Http;

public static class Policies
{
    private static readonly Random Jitterer = new Random();

    public static IAsyncPolicy<HttpResponseMessage> GetRetryPolicy() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .WaitAndRetryAsync(3, retryAttempt =>
                TimeSpan.FromSeconds(Math.Pow(2, retryAttempt))
                + TimeSpan.FromMilliseconds(Jitterer.Next(0, 1000)));
}
