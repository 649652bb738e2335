// The standard handler retries every method, but the typed client it is
// on only reads: its calls are GETs, which are safe to repeat. A cache's
// `DeleteAsync` is no HTTP call.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<CatalogClient>(c => c.BaseAddress = new Uri("https+http://catalog-api"))
    .AddStandardResilienceHandler();

public sealed class CatalogClient(HttpClient http, IDistributedCache cache)
{
    public async Task<Item?> ItemAsync(int id)
    {
        await cache.DeleteAsync($"item-{id}");
        return await http.GetFromJsonAsync<Item>($"/api/items/{id}");
    }

    public Task<string> NameAsync(int id) => http.GetStringAsync($"/api/items/{id}/name");
}
