using System.Net.Http;
using Polly;

public static class Policies
{
    private static readonly Random Jitterer = new();

    public static IAsyncPolicy Retry() =>
        Policy.Handle<HttpRequestException>()
            .WaitAndRetryAsync(3, a => TimeSpan.FromSeconds(Math.Pow(2, a)) + TimeSpan.FromMilliseconds(Jitterer.Next(0, 500)));
}
