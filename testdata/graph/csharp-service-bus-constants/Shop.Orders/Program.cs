// Orders sends refunds to the queue the contracts library names, and
// audits to a queue whose constant is nowhere in the scan.
using Azure.Messaging.ServiceBus;
using Shop.Contracts;

var builder = WebApplication.CreateBuilder(args);
var client = new ServiceBusClient(builder.Configuration["ServiceBus"]);
var app = builder.Build();
app.MapPost("/refunds", async (string id) =>
{
    await using var sender = client.CreateSender(Queues.Refunds);
    await sender.SendMessageAsync(new ServiceBusMessage(id));
    await using var audit = client.CreateSender(Vendor.AuditQueue);
    await audit.SendMessageAsync(new ServiceBusMessage(id));
});
app.Run();
