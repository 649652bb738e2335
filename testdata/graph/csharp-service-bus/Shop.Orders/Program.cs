// Orders publishes to the queue `orders-placed` through a Service Bus
// client that retries each send 5 times (6 attempts), a fixed 2 s apart.
using Azure.Messaging.ServiceBus;

var builder = WebApplication.CreateBuilder(args);
var client = new ServiceBusClient(builder.Configuration["ServiceBus"], new ServiceBusClientOptions
{
    RetryOptions = new ServiceBusRetryOptions
    {
        MaxRetries = 5,
        Mode = ServiceBusRetryMode.Fixed,
        Delay = TimeSpan.FromSeconds(2),
    },
});
ServiceBusSender sender = client.CreateSender("orders-placed");
var app = builder.Build();
app.MapPost("/orders", async (Order o) => await sender.SendMessageAsync(new ServiceBusMessage(o.Id)));
// Urgent orders go to another queue, chosen at run time.
app.MapPost("/reorders", async (Order o) =>
{
    var queue = o.Urgent ? UrgentQueue : "orders-placed";
    await using var s = client.CreateSender(queue);
    await s.SendMessageAsync(new ServiceBusMessage(o.Id));
});
app.Run();

partial class Program
{
    const string UrgentQueue = "orders-urgent";
}
