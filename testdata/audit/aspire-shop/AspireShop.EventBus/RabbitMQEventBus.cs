using System.Net.Sockets;
using Polly;
using Polly.Retry;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace AspireShop.EventBus;

public sealed class EventBusOptions
{
    public int RetryCount { get; set; } = 10;
}

public sealed class RabbitMQEventBus(EventBusOptions options)
{
    private readonly ResiliencePipeline _pipeline = CreateResiliencePipeline(options.RetryCount);

    public void Publish(IChannel channel, string eventName, byte[] body) =>
        _pipeline.Execute(() => channel.BasicPublish("eshop_event_bus", eventName, body));

    private static ResiliencePipeline CreateResiliencePipeline(int retryCount)
    {
        // See https://www.pollydocs.org/strategies/retry.html
        var retryOptions = new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<BrokerUnreachableException>().Handle<SocketException>(),
            MaxRetryAttempts = retryCount,
            DelayGenerator = (context) => ValueTask.FromResult(GenerateDelay(context.AttemptNumber))
        };

        return new ResiliencePipelineBuilder()
            .AddRetry(retryOptions)
            .Build();

        static TimeSpan? GenerateDelay(int attempt)
        {
            return TimeSpan.FromSeconds(Math.Pow(2, attempt));
        }
    }
}
