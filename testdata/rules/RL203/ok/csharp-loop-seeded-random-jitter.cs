// The pause between reconnections is 1 s plus a random part drawn from a
// `Random` made with its own seed (`new Random(seed).Next(1000)`): 1 to
// 2 s with jitter, not a fixed 1 s.
public class Subscription
{
    private void Resubscribe()
    {
        while (true)
        {
            var resubscribed = false;
            try
            {
                Subscribe().Wait();
                resubscribed = true;
            }
            catch (System.Exception exception)
            {
                _logger.LogWarning(exception, "resubscribe failed");
            }
            if (resubscribed)
                break;
            Thread.Sleep(1000 + new Random((int)DateTime.UtcNow.Ticks).Next(1000));
        }
    }
}
