using System.Net.Http;
using Polly;

public static class Policies
{
    // `Retry(count, onRetry)`: the lambda only logs each retry (Polly v7's
    // `onRetry`); the retries still come at once, with no wait.
    public static T WithRetries<T>(Func<T> action, int retryCount = 3)
    {
        var retryPolicy = Policy
            .Handle<HttpRequestException>()
            .Retry(retryCount, (exception, retryAttempt, context) =>
            {
                Logger.LogInformation($"Retry attempt: {retryAttempt}");
            });
        return retryPolicy.Execute(action);
    }
}
