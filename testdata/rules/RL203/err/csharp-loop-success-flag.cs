// A hand-written retry that leaves through a flag its `try` sets, not a
// `return` or `break`: `sent` ends the loop on success, so it is a retry
// (five tries, a fixed second apart, no jitter), not a poller.
public class Publisher(HttpClient http)
{
    public async Task PublishAsync(Order order)
    {
        var sent = false;
        var attempt = 0;
        while (!sent && attempt < 5)
        {
            try
            {
                await http.PostAsJsonAsync("http://events/api/orders", order);
                sent = true;
            }
            catch (HttpRequestException)
            {
                attempt++;
            }
            await Task.Delay(1000);
        }
    }
}
