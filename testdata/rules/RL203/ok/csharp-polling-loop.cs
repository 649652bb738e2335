using Azure.Storage.Blobs;

// From duncan-G/ThePlot (PdfValidationWorker.RunPollingLoopAsync): a
// poller lists the container every 2 s, after a success as after a
// failure, until the host stops. Nothing failed is sent again: it is not
// a retry, whatever its catch takes.
public sealed class BlobPoller(BlobServiceClient blobs, ILogger<BlobPoller> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var container = blobs.GetBlobContainerClient("uploads");
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await foreach (var blob in container.GetBlobsAsync(cancellationToken: stoppingToken))
                {
                    if (seen.Add(blob.Name))
                        await HandleAsync(blob.Name, stoppingToken);
                }
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex)
            {
                logger.LogWarning(ex, "Polling iteration failed. Retrying after delay.");
            }

            await Task.Delay(TimeSpan.FromSeconds(2), stoppingToken);
        }
    }

    private Task HandleAsync(string name, CancellationToken ct) => Task.CompletedTask;
}
