using Azure.Messaging.ServiceBus;

namespace Shop.Billing;

// duncan-G/ThePlot's shape: the publisher declares its queue's name, the
// worker receives from it by that constant.
public sealed class InvoicePublisher(ServiceBusClient client)
{
    public const string QueueName = "invoices";

    public async Task PublishAsync(string id)
    {
        await using var sender = client.CreateSender(QueueName);
        await sender.SendMessageAsync(new ServiceBusMessage(id));
    }
}
