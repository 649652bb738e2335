// Catalog runs the same service defaults without options of its own:
// the standard handler's 4 attempts.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.AddHttpClient<InventoryClient>(c => c.BaseAddress = new Uri("http://inventory"));
var app = builder.Build();
app.Run();

public sealed class InventoryClient(HttpClient http)
{
    public Task<Stock?> GetAsync(string id) => http.GetFromJsonAsync<Stock>($"/api/stock/{id}");
}
