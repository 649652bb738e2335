using Polly;

// The asynchronous policy awaits the task and sees its failure.
public class Subscriber
{
    private IConnection _connection;

    public async Task Start(ConnectionFactory factory)
    {
        await Policy
            .Handle<BrokerUnreachableException>()
            .WaitAndRetryAsync(3, attempt => TimeSpan.FromSeconds(Math.Pow(2, attempt)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 500)))
            .ExecuteAsync(async () =>
            {
                _connection = await factory.CreateConnectionAsync();
            });
    }
}
