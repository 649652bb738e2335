// A Polly v7 policy that also retries 429 Too Many Requests (`OrResult`
// tests the status): a client error worth retrying after a wait, so no
// client error that fails the same way each time is retried.
using Polly;
using Polly.Extensions.Http;

public static class HttpClientPolicyExtensions
{
    public static void AddRetryPolicy(IHttpClientBuilder builder) =>
        builder.AddPolicyHandler(GetRetryPolicy());

    public static IAsyncPolicy<HttpResponseMessage> GetRetryPolicy() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .OrResult(msg => msg.StatusCode == System.Net.HttpStatusCode.TooManyRequests)
            .WaitAndRetryAsync(3, retryAttempt => TimeSpan.FromSeconds(Math.Pow(2, retryAttempt)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 1000)));
}
