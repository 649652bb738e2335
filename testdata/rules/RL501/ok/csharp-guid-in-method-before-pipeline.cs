// The key is minted once, in a method called before the pipeline runs;
// the method the delegate runs only sends it.
using Polly;
using Polly.Retry;

public class PaymentsClient(HttpClient http)
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 3, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
        .Build();

    public async Task ChargeAsync(Charge charge, CancellationToken token)
    {
        var key = NewKey();
        await _pipeline.ExecuteAsync(async ct => await SendChargeAsync(charge, key, ct), token);
    }

    private static string NewKey() => Guid.NewGuid().ToString();

    private async Task SendChargeAsync(Charge charge, string key, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "http://payments/api/charges");
        request.Headers.Add("Idempotency-Key", key);
        request.Content = JsonContent.Create(charge);
        (await http.SendAsync(request, ct)).EnsureSuccessStatusCode();
    }
}
