// Five connect cycles of 20 s: 100 s in all, bounded by the cycles'
// ConnectTimeout (a synchronous Connect waits ConnectTimeout x ConnectRetry).
using StackExchange.Redis;

var mux = ConnectionMultiplexer.Connect("cache:6379,connectRetry=5,connectTimeout=20000");
