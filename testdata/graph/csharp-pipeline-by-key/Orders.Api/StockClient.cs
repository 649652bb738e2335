using Polly;
using Polly.Registry;

public sealed class StockClient(HttpClient http, ResiliencePipelineProvider<string> pipelines)
{
    private readonly ResiliencePipeline _retry = pipelines.GetPipeline("stock-retry");

    // Run by the "stock-retry" pipeline: 1 + 4 attempts.
    public async Task<int> CountAsync(string sku, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token => await http.GetFromJsonAsync<int>($"/api/stock/{sku}", token), ct);

    // "timeout-only" holds no retry: one attempt.
    public async Task ReserveAsync(string sku, CancellationToken ct)
    {
        var timeout = pipelines.GetPipeline("timeout-only");
        await timeout.ExecuteAsync(async token => await http.PostAsync($"/api/stock/{sku}/reserve", null, token), ct);
    }
}
