// StackExchange.Redis begins the next connect cycle when the last has
// waited its ConnectTimeout: repeated connects, not calls retried at once.
using StackExchange.Redis;

var mux = ConnectionMultiplexer.Connect("cache:6379,connectRetry=5,connectTimeout=20000");
