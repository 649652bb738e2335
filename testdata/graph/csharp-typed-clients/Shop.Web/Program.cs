var builder = WebApplication.CreateBuilder(args);
builder.AddDefaults();
// The typed client of the library Shop.Clients, registered here.
builder.Services.AddHttpClient<OrdersClient>(o => o.BaseAddress = new("http://orders"));
// A named client with a handler of its own (2 attempts).
builder.Services.AddHttpClient("stock", c => c.BaseAddress = new Uri("http://stock"))
    .AddStandardResilienceHandler(o => o.Retry.MaxRetryAttempts = 1);
// A gRPC client: the address says http://, the calls speak gRPC through
// the client factory (the defaults' handler applies).
builder.Services.AddGrpcClient<Pricing.PricingClient>(o => o.Address = new("http://pricing"));
var app = builder.Build();
app.Run();
