// A negative ConnectRetry makes one connect cycle, as 0 does; a
// connection string's count that is not a number stops the parse.
using StackExchange.Redis;

var builder = WebApplication.CreateBuilder(args);
builder.AddRedisClient("cache", configureOptions: o => o.ConnectRetry = -1);
var other = ConfigurationOptions.Parse("cache:6379,connectRetry=three");
