using System.Net.Http;
using Polly;

public static class Policies
{
    // Three retries at once, with no wait: they land while the server is still down.
    public static IAsyncPolicy Retry() =>
        Policy.Handle<HttpRequestException>().RetryAsync(3);
}
