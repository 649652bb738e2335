// Web gives Orders 5 s per attempt, but Orders' own calls to payments
// may retry for 30 s (the standard handler's total): Web abandons work
// Orders keeps doing.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri("http://Shop_Orders"))
    .AddStandardResilienceHandler(o => o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(5));
var app = builder.Build();
app.Run();

public sealed class OrdersClient(HttpClient http)
{
    public Task<Order?> GetAsync(string id) => http.GetFromJsonAsync<Order>($"/api/orders/{id}");
}
