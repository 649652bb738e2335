using Polly;

// A synchronous policy running an async lambda: `Execute` gets the task
// back at the first `await` and returns it; the connection failure comes
// back inside the task, which the policy never awaits.
public class Subscriber
{
    private IConnection _connection;

    public void Start(ConnectionFactory factory)
    {
        Policy
            .Handle<BrokerUnreachableException>()
            .WaitAndRetry(5, attempt => TimeSpan.FromSeconds(Math.Pow(2, attempt)))
            .Execute(async () =>
            {
                _connection = await factory.CreateConnectionAsync();
            });
    }
}
