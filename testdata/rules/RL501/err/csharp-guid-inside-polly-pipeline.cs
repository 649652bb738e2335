// The key is minted inside the delegate the pipeline retries.
using Polly;
using Polly.Retry;

public class PaymentsClient(HttpClient http)
{
    private readonly ResiliencePipeline _pipeline = CreatePipeline();

    private static ResiliencePipeline CreatePipeline() =>
        new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 3, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
            .Build();

    public async Task ChargeAsync(Charge charge, CancellationToken token) =>
        await _pipeline.ExecuteAsync(async ct =>
        {
            var idempotencyKey = Guid.NewGuid().ToString();
            using var request = new HttpRequestMessage(HttpMethod.Post, "http://payments/api/charges");
            request.Headers.Add("Idempotency-Key", idempotencyKey);
            (await http.SendAsync(request, ct)).EnsureSuccessStatusCode();
        }, token);
}
