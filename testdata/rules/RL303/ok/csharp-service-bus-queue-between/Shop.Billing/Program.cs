// Billing receives from `orders-placed` and charges through the ledger
// with the standard handler (up to 30 s in all).
using Azure.Messaging.ServiceBus;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<LedgerClient>(c => c.BaseAddress = new Uri("http://ledger"))
    .AddStandardResilienceHandler(o => o.Retry.DisableForUnsafeHttpMethods());
await using var client = new ServiceBusClient(builder.Configuration["ServiceBus"]);
ServiceBusProcessor processor = client.CreateProcessor("orders-placed");
await processor.StartProcessingAsync();
var app = builder.Build();
app.Run();

public sealed class LedgerClient(HttpClient http)
{
    public Task<Entry?> GetAsync(string id) => http.GetFromJsonAsync<Entry>($"/api/entries/{id}");
}
