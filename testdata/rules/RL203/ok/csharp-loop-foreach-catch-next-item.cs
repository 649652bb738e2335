// The outbox worker sends every pending item once per round: a failed
// item is logged and the `foreach` goes on to the next one, and the
// `while` loop waits before the next round whatever happened. No failure
// is tried again by this loop, so it is a poller, not a retry.
public class OutboxWorker
{
    public async Task RunAsync(CancellationToken token)
    {
        while (!token.IsCancellationRequested)
        {
            var pending = await _store.PendingAsync(token);
            if (pending.Count == 0)
            {
                return;
            }
            foreach (var item in pending)
            {
                try
                {
                    await _client.SendAsync(item, token);
                }
                catch (HttpRequestException ex)
                {
                    _logger.LogError(ex, "send failed, next item");
                    continue;
                }
            }
            await Task.Delay(1000, token);
        }
    }
}
