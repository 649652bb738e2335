// Connection recovery with no pause: RabbitMQ.Client waits the interval
// before each recovery attempt and tries until one succeeds, so a zero
// interval reconnects in a tight loop while the broker is down.
using RabbitMQ.Client;

public static class Bus
{
    public static IConnection Connect(string host)
    {
        var factory = new ConnectionFactory
        {
            HostName = host,
            AutomaticRecoveryEnabled = true,
            NetworkRecoveryInterval = TimeSpan.Zero,
        };
        var other = new ConnectionFactory { HostName = host };
        other.NetworkRecoveryInterval = TimeSpan.FromSeconds(0);
        return factory.CreateConnection();
    }
}
