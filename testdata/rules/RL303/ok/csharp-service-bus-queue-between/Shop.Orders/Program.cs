// Orders sends to the queue `orders-placed` with 10 s per try: it waits
// for the broker to take the message, not for Billing's work, so
// Billing's longer retries are not cut short by it.
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
