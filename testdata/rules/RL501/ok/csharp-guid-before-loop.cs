// The key is made once, before the retry: every attempt sends the same.
public class PaymentsClient(HttpClient http)
{
    public async Task ChargeAsync(Charge charge)
    {
        var idempotencyKey = Guid.NewGuid().ToString();
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, "http://payments/api/charges");
                request.Headers.Add("Idempotency-Key", idempotencyKey);
                (await http.SendAsync(request)).EnsureSuccessStatusCode();
                return;
            }
            catch (HttpRequestException)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(Random.Shared.Next(100, 400 * attempt)));
            }
        }
    }
}
