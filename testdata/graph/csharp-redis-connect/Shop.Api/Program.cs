using StackExchange.Redis;

// Eight connect cycles to the cache at start-up, and a plain HttpClient
// call with no retry: the connect retry is not the call's.
var mux = ConnectionMultiplexer.Connect("cache:6379,connectRetry=8");
var http = new HttpClient();
var items = await http.GetAsync("http://catalog/items");
