// Ten connect cycles of 15 s each: a Redis that is down holds the
// service's start for two and a half minutes before Connect gives up.
using StackExchange.Redis;

public static class Cache
{
    public static IConnectionMultiplexer Open() =>
        ConnectionMultiplexer.Connect("cache:6379,ssl=false,connectRetry=10,connectTimeout=15000");
}
