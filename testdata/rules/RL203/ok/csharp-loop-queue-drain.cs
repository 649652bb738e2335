// Each round of the loop takes a new message off the queue
// (`TryDequeue(out ..)` in its condition): a message that failed is
// logged and the next one is sent after a pause. Nothing is sent again,
// so the fixed pause is no retry delay.
public class OutboxDrain
{
    public async Task DrainAsync(CancellationToken token)
    {
        while (_queue.TryDequeue(out var message))
        {
            if (message is null)
            {
                return;
            }
            try
            {
                await _client.SendAsync(message, token);
            }
            catch (HttpRequestException ex)
            {
                _logger.LogError(ex, "send failed, next message");
                await Task.Delay(500, token);
            }
        }
    }
}
