var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<Mart.Bus.EventBus>();
builder.Services.AddHttpClient<StockClient>(c => c.BaseAddress = new("http://payments"));
var app = builder.Build();
app.Run();

public sealed class StockClient(HttpClient http)
{
    public Task<string?> Status() => http.GetFromJsonAsync<string>("/status");
}
