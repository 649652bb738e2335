// ConfigurationOptions built in code, then two more settings on the
// object: eight connect cycles.
using StackExchange.Redis;

public static class Cache
{
    public static async Task<IConnectionMultiplexer> OpenAsync(string connectionString)
    {
        var options = ConfigurationOptions.Parse(connectionString);
        options.ConnectRetry = 8;
        options.ConnectTimeout = 2000;
        return await ConnectionMultiplexer.ConnectAsync(options);
    }

    public static IConnectionMultiplexer OpenLocal() =>
        ConnectionMultiplexer.Connect(new ConfigurationOptions
        {
            EndPoints = { "localhost:6379" },
            ConnectRetry = 6,
            SyncTimeout = 10000,
        });
}
