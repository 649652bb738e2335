// Three connect cycles, then the Aspire client with its own settings: no
// count above the limit, and no backoff, predicate or timeout finding for
// repeated connects.
using StackExchange.Redis;

var builder = WebApplication.CreateBuilder(args);
builder.AddRedisClient("cache", configureOptions: o =>
{
    o.ConnectRetry = 5;
    o.ConnectTimeout = 3000;
});
var direct = ConnectionMultiplexer.Connect("cache:6379,connectRetry=3");
var fallback = ConnectionMultiplexer.Connect("cache:6379,connectTimeout=2000");
