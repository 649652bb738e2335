// A new idempotency key per attempt: the payments service cannot tell a
// retry from a new charge.
public class PaymentsClient(HttpClient http)
{
    public async Task ChargeAsync(Charge charge)
    {
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, "http://payments/api/charges");
                request.Headers.Add("Idempotency-Key", Guid.NewGuid().ToString());
                request.Content = JsonContent.Create(charge);
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
