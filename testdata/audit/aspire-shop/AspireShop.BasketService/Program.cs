var builder = WebApplication.CreateBuilder(args);

builder.AddServiceDefaults();
builder.Services.AddHttpClient<CatalogClient>(client => client.BaseAddress = new Uri("https+http://catalogservice"));

var app = builder.Build();

app.MapPost("/api/basket/{id}/checkout", async (int id, CatalogClient catalog) =>
{
    await catalog.ReserveAsync(id);
    return Results.Accepted();
});

app.Run();

public sealed class CatalogClient(HttpClient http)
{
    // A POST under the standard handler of ConfigureHttpClientDefaults: a
    // reservation that timed out after the catalog made it is made again.
    public Task ReserveAsync(int basketId) =>
        http.PostAsJsonAsync("/api/reservations", new { basketId });
}
