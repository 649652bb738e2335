// A hand-written retry: five tries, a fixed second apart, no jitter.
public class InventoryClient(HttpClient http)
{
    public async Task<Stock> GetStockAsync(string sku)
    {
        for (var attempt = 0; attempt < 5; attempt++)
        {
            try
            {
                return await http.GetFromJsonAsync<Stock>($"http://inventory/api/stock/{sku}");
            }
            catch (HttpRequestException)
            {
                await Task.Delay(1000);
            }
        }
        throw new InvalidOperationException("inventory unavailable");
    }
}
