var builder = WebApplication.CreateBuilder(args);

builder.AddServiceDefaults();
builder.Services.AddHttpClient<BasketClient>(client => client.BaseAddress = new Uri("https+http://basketservice"));

var app = builder.Build();

app.MapGet("/api/items/{id}", async (int id, BasketClient basket) =>
{
    var reserved = await basket.ReservedAsync(id);
    return Results.Ok(new { id, reserved });
});

app.Run();

public sealed class BasketClient(HttpClient http)
{
    public Task<int> ReservedAsync(int itemId) =>
        http.GetFromJsonAsync<int>($"/api/reserved/{itemId}");
}
