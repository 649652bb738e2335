// Catalog runs the same service defaults without options, and only
// reads: its handler retries GETs, which is safe.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.AddHttpClient<InventoryClient>(c => c.BaseAddress = new Uri("http://inventory"));
var app = builder.Build();
app.Run();

public sealed class InventoryClient(HttpClient http)
{
    public Task<Stock?> GetAsync(string id) => http.GetFromJsonAsync<Stock>($"/api/stock/{id}");
}
