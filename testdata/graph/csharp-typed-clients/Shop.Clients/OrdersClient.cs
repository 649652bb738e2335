namespace Shop.Clients;

public sealed class OrdersClient(HttpClient http)
{
    public Task<HttpResponseMessage> PlaceAsync(Order order) =>
        http.PostAsJsonAsync("/api/orders", order);
}

public static class Rates
{
    // Made with `new HttpClient()`, not by the factory: no handler of
    // ConfigureHttpClientDefaults applies to it.
    public static async Task<string> LatestAsync()
    {
        using var client = new HttpClient();
        return await client.GetStringAsync("https://rates.example.com/v1/latest");
    }
}
