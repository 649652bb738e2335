using Polly;
using Polly.Retry;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Mart.Bus;

public sealed class EventBus
{
    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<BrokerUnreachableException>(),
            MaxRetryAttempts = 4,
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,
        })
        .Build();

    public void Publish(IChannel channel, string name, byte[] body) =>
        _pipeline.Execute(() => channel.BasicPublish("mart", name, body));
}
