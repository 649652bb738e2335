// A Polly v7 policy on an HttpClient that also retries 404 Not Found
// (`OrResult` tests the status): asking again for what is not there
// gets the same answer (DFE-Digital/sts-plan-technology-for-your-school,
// HttpClientPolicyExtensions.cs, had this shape).
using Polly;
using Polly.Extensions.Http;

public static class HttpClientPolicyExtensions
{
    public static void AddRetryPolicy(IHttpClientBuilder builder) =>
        builder.AddPolicyHandler(GetRetryPolicy());

    public static IAsyncPolicy<HttpResponseMessage> GetRetryPolicy() =>
        HttpPolicyExtensions
            .HandleTransientHttpError()
            .OrResult(msg => msg.StatusCode == System.Net.HttpStatusCode.NotFound)
            .WaitAndRetryAsync(3, retryAttempt => TimeSpan.FromSeconds(Math.Pow(2, retryAttempt)));
}
