// dotnet-architecture/eShopOnContainers' RabbitMQ publish retry: five
// retries waiting 2, 4, 8, 16, 32 s (62 s of waits) and no overall
// deadline while the publisher blocks.
using Polly;
using RabbitMQ.Client.Exceptions;
using System.Net.Sockets;

public class EventBusRabbitMQ
{
    private readonly int _retryCount = 5;

    public void Publish(Action publish)
    {
        var policy = Policy.Handle<BrokerUnreachableException>()
            .Or<SocketException>()
            .WaitAndRetry(_retryCount, retryAttempt => TimeSpan.FromSeconds(Math.Pow(2, retryAttempt)));
        policy.Execute(publish);
    }
}
