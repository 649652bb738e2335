// Web reads orders through a typed client with a handler of 5 retries
// (6 attempts); Orders reads payments with 5 retries too: one request to
// Web can become 36 attempts at payments.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri("http://Shop_Orders"))
    .AddStandardResilienceHandler(o => o.Retry.MaxRetryAttempts = 5);
var app = builder.Build();
app.Run();

public sealed class OrdersClient(HttpClient http)
{
    public Task<Order?> GetAsync(string id) => http.GetFromJsonAsync<Order>($"/api/orders/{id}");
}
