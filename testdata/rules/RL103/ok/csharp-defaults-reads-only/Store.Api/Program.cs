// The one program of the solution only reads through its clients: the
// handler on every client retries GETs alone here.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.AddHttpClient<PricesClient>(c => c.BaseAddress = new Uri("http://prices"));
var app = builder.Build();
app.Run();

public sealed class PricesClient(HttpClient http)
{
    public Task<Price?> GetAsync(string sku) => http.GetFromJsonAsync<Price>($"/api/prices/{sku}");
}
