// Billing receives from `orders-placed` and `orders-urgent`: the one
// program that does.
using Azure.Messaging.ServiceBus;

var builder = WebApplication.CreateBuilder(args);
await using var client = new ServiceBusClient(builder.Configuration["ServiceBus"]);
ServiceBusProcessor processor = client.CreateProcessor("orders-placed", new ServiceBusProcessorOptions());
processor.ProcessMessageAsync += args => Task.CompletedTask;
processor.ProcessErrorAsync += args => Task.CompletedTask;
await processor.StartProcessingAsync();
ServiceBusProcessor urgent = client.CreateProcessor("orders-urgent");
await urgent.StartProcessingAsync();
var app = builder.Build();
app.Run();
