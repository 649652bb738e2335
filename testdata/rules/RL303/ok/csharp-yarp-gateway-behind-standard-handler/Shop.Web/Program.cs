// From kbr-ucl/Forskningensdoegn2025Aspire: the frontend calls the YARP
// gateway with the standard handler (10 s per attempt). The gateway does
// not retry, and its 100 s activity timeout is how long it waits for
// Orders, not work of its own: Orders makes no call, so nothing outlasts
// the frontend's attempt (YARP also cancels the forwarded request when the
// frontend gives up: `context.RequestAborted` is linked into its
// ActivityCancellationTokenSource).
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri("http://Shop_Gateway"))
    .AddStandardResilienceHandler();
var app = builder.Build();
app.Run();

public sealed class OrdersClient(HttpClient http)
{
    public Task<Order?> GetAsync(string id) => http.GetFromJsonAsync<Order>($"/orders/api/orders/{id}");
}
