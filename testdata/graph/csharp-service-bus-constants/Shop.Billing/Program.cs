// Billing receives refunds (the contracts library's constant) and its
// own invoices (its publisher's constant).
using Azure.Messaging.ServiceBus;
using Shop.Billing;
using Shop.Contracts;

var builder = WebApplication.CreateBuilder(args);
var client = new ServiceBusClient(builder.Configuration["ServiceBus"]);
var refunds = client.CreateProcessor(Queues.Refunds);
await refunds.StartProcessingAsync();
var invoices = client.CreateProcessor(InvoicePublisher.QueueName);
await invoices.StartProcessingAsync();
builder.Build().Run();
