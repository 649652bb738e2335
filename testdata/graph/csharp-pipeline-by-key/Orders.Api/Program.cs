using Polly;
using Polly.Retry;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<StockClient>(c => c.BaseAddress = new Uri("http://stock-api"));
builder.Services.AddHttpClient<PricesClient>(c => c.BaseAddress = new Uri("http://prices-api"));
// A typed client with a handler of its own, whose calls a pipeline also
// runs: each of the pipeline's 5 attempts is the handler's 4.
builder.Services.AddHttpClient<InventoryClient>(c => c.BaseAddress = new Uri("http://inventory-api"))
    .AddStandardResilienceHandler();

// Registered by key; the clients take them from the provider where they
// run them.
builder.Services.AddResiliencePipeline("stock-retry", pipeline =>
{
    pipeline.AddRetry(new RetryStrategyOptions
    {
        MaxRetryAttempts = 4,
        BackoffType = DelayBackoffType.Exponential,
        UseJitter = true,
    });
});
builder.Services.AddResiliencePipeline("timeout-only", pipeline => pipeline.AddTimeout(TimeSpan.FromSeconds(5)));

var app = builder.Build();
app.Run();
