// Orders sends to the queue `orders-placed`: its retried sends reach the
// broker, not Billing's work, so Billing's ledger calls are not
// multiplied by them.
using Azure.Messaging.ServiceBus;

var builder = WebApplication.CreateBuilder(args);
var client = new ServiceBusClient(builder.Configuration["ServiceBus"], new ServiceBusClientOptions
{
    RetryOptions = new ServiceBusRetryOptions { TryTimeout = TimeSpan.FromSeconds(10) },
});
ServiceBusSender sender = client.CreateSender("orders-placed");
var app = builder.Build();
app.MapPost("/orders", async (Order o) => await sender.SendMessageAsync(new ServiceBusMessage(o.Id)));
app.Run();
