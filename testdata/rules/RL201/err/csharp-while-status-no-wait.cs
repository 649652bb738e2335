using System.Net;
using System.Net.Http;
using System.Threading.Tasks;

public class StockClient
{
    private readonly HttpClient _http;

    public StockClient(HttpClient http) => _http = http;

    // No `catch`: the loop's condition tests the response's status, and a
    // 503 sends the request again at once, for ever.
    public async Task<string> StockAsync(string sku)
    {
        var resp = await _http.GetAsync($"http://inventory/stock/{sku}");
        while (resp.StatusCode == HttpStatusCode.ServiceUnavailable)
        {
            resp = await _http.GetAsync($"http://inventory/stock/{sku}");
        }
        return await resp.Content.ReadAsStringAsync();
    }
}
