// A Service Bus client with its default retry options: 3 retries (4
// attempts), exponential from 0.8 s (ServiceBusRetryOptions).
using Azure.Messaging.ServiceBus;

await using var client = new ServiceBusClient("sb://shop.servicebus.windows.net/", new ServiceBusClientOptions
{
    RetryOptions = { TryTimeout = TimeSpan.FromSeconds(30) },
});
ServiceBusSender sender = client.CreateSender("orders");
await sender.SendMessageAsync(new ServiceBusMessage("placed"));
