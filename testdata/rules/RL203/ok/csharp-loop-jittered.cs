// A hand-written retry with a random wait.
public class InventoryClient(HttpClient http)
{
    public async Task<Stock> GetStockAsync(string sku)
    {
        for (var attempt = 0; attempt < 3; attempt++)
        {
            try
            {
                return await http.GetFromJsonAsync<Stock>($"http://inventory/api/stock/{sku}");
            }
            catch (HttpRequestException)
            {
                await Task.Delay(Random.Shared.Next(200, 1000 << attempt));
            }
        }
        throw new InvalidOperationException("inventory unavailable");
    }
}
