using Azure.Messaging.ServiceBus;

namespace Shop.Worker;

// Sends to the worker's queue: used by the worker itself (re-queueing) and
// by the API, which references this project.
public sealed class WorkPublisher(ServiceBusClient client)
{
    public async Task PublishAsync(string id)
    {
        await using var sender = client.CreateSender("work-items");
        await sender.SendMessageAsync(new ServiceBusMessage(id));
    }
}
