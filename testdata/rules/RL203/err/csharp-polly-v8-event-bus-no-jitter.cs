using System.Net.Sockets;
using Polly;
using Polly.Retry;
using RabbitMQ.Client.Exceptions;

public sealed class RabbitMQEventBus
{
    private readonly ResiliencePipeline _pipeline = CreateResiliencePipeline(10);

    // 2^n seconds and no jitter: every subscriber that lost the broker
    // reconnects in the same second, ten times over.
    private static ResiliencePipeline CreateResiliencePipeline(int retryCount)
    {
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
