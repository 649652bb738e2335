using Microsoft.Extensions.DependencyInjection;
using Polly;

// Polly.Extensions 8.3 on registers each pipeline as a keyed service too.
public sealed class PricesClient(HttpClient http, [FromKeyedServices("stock-retry")] ResiliencePipeline pipeline)
{
    public async Task<decimal> PriceAsync(string sku, CancellationToken ct) =>
        await pipeline.ExecuteAsync(async token => await http.GetFromJsonAsync<decimal>($"/api/prices/{sku}", token), ct);

    // Outside the pipeline: no retry.
    public async Task<string?> NameAsync(string sku) =>
        await http.GetStringAsync($"/api/names/{sku}");
}
