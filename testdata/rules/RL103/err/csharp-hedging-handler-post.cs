// The standard hedging handler on the typed client `OrdersClient`, whose
// one call is a POST: a second copy of the order goes out after 2 s
// without an answer, while the first may still be processed.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri("http://orders"))
    .AddStandardHedgingHandler();

public sealed class OrdersClient(HttpClient http)
{
    public Task<HttpResponseMessage> PlaceAsync(Order order) =>
        http.PostAsJsonAsync("/api/orders", order);
}
