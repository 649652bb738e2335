using Polly;
using Polly.Retry;

// Two pipelines built here: each call carries the one that runs it, not
// the other.
public sealed class AuditClient(HttpClient http)
{
    private static readonly ResiliencePipeline Writes = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 2, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
        .Build();

    private static readonly ResiliencePipeline Reads = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 6, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
        .Build();

    public async Task RecordAsync(CancellationToken ct) =>
        await Writes.ExecuteAsync(async t => await http.PutAsync("http://audit-api/api/entries/1", null, t), ct);

    public async Task<string> ReadAsync(CancellationToken ct) =>
        await Reads.ExecuteAsync(async t => await http.GetStringAsync("http://audit-api/api/entries", t), ct);

    // The delegate runs a method of the class: the call there carries
    // "Writes" too.
    public async Task ArchiveAsync(CancellationToken ct) =>
        await Writes.ExecuteAsync(async t => await SendArchiveAsync(t), ct);

    private async Task SendArchiveAsync(CancellationToken t)
    {
        await http.DeleteAsync("http://audit-api/api/entries/old", t);
    }
}
