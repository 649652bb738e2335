using Polly;
using Polly.Registry;

public sealed class InventoryClient(HttpClient http, ResiliencePipelineProvider<string> pipelines)
{
    // The delegate runs a method of this class: its call is retried too,
    // 1 + 4 attempts.
    public async Task<int> OnHandAsync(string sku, CancellationToken ct)
    {
        var retry = pipelines.GetPipeline("stock-retry");
        return await retry.ExecuteAsync(async token => await FetchAsync(sku, token), ct);
    }

    // A method group, whose method calls another of the class.
    public async Task RefreshAsync(CancellationToken ct) =>
        await pipelines.GetPipeline("stock-retry").ExecuteAsync(ReloadAsync, ct);

    private async ValueTask<int> FetchAsync(string sku, CancellationToken token) =>
        await http.GetFromJsonAsync<int>($"/api/inventory/{sku}", token);

    private async ValueTask ReloadAsync(CancellationToken token) => await this.SendReloadAsync(token);

    private async Task SendReloadAsync(CancellationToken token)
    {
        await http.PostAsync("/api/inventory/reload", null, token);
    }

    // Run by no pipeline: one attempt.
    public async Task<string> VersionAsync() => await http.GetStringAsync("/api/inventory/version");
}
