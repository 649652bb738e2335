// A Service Bus client whose retry options allow ten retries: 11
// attempts per send (Azure.Messaging.ServiceBus ServiceBusRetryOptions).
using Azure.Messaging.ServiceBus;

var options = new ServiceBusClientOptions();
options.RetryOptions.MaxRetries = 10;
options.RetryOptions.TryTimeout = TimeSpan.FromSeconds(30);
await using var client = new ServiceBusClient("sb://shop.servicebus.windows.net/", options);
ServiceBusSender sender = client.CreateSender("orders");
await sender.SendMessageAsync(new ServiceBusMessage("placed"));
