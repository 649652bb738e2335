// A pause between recovery attempts, and a zero interval on a factory
// whose recovery is off (nothing waits it).
using RabbitMQ.Client;

public static class Bus
{
    public static IConnection Connect(string host)
    {
        var factory = new ConnectionFactory
        {
            HostName = host,
            NetworkRecoveryInterval = TimeSpan.FromSeconds(10),
        };
        var manual = new ConnectionFactory
        {
            AutomaticRecoveryEnabled = false,
            NetworkRecoveryInterval = TimeSpan.Zero,
        };
        var other = new ConnectionFactory { HostName = host };
        other.AutomaticRecoveryEnabled = false;
        other.NetworkRecoveryInterval = TimeSpan.Zero;
        return factory.CreateConnection();
    }
}
