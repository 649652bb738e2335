// The delegate runs a method of the class, and that method mints the key:
// a new key on every attempt all the same.
using Polly;
using Polly.Retry;

public class PaymentsClient(HttpClient http)
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 3, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
        .Build();

    public async Task ChargeAsync(Charge charge, CancellationToken token) =>
        await _pipeline.ExecuteAsync(async ct => await SendChargeAsync(charge, ct), token);

    private async Task SendChargeAsync(Charge charge, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "http://payments/api/charges");
        request.Headers.Add("Idempotency-Key", Guid.NewGuid().ToString());
        request.Content = JsonContent.Create(charge);
        (await http.SendAsync(request, ct)).EnsureSuccessStatusCode();
    }
}
