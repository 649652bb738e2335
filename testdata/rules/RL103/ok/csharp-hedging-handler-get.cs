// The standard hedging handler on a client that only reads: hedged GETs
// are safe to send twice.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<CatalogClient>(c => c.BaseAddress = new Uri("http://catalog"))
    .AddStandardHedgingHandler()
    .Configure(o =>
    {
        o.Hedging.MaxHedgedAttempts = 2;
        o.Hedging.Delay = TimeSpan.FromMilliseconds(500);
    });

public sealed class CatalogClient(HttpClient http)
{
    public Task<Item?> GetAsync(int id) => http.GetFromJsonAsync<Item>($"/api/items/{id}");
}
