// Options that reach the handlers: every name (`ConfigureAll`), the one
// handler's own name, and the section handed to the handler itself.
var builder = WebApplication.CreateBuilder(args);

builder.Services.ConfigureAll<HttpStandardResilienceOptions>(
    o => o.Retry.MaxRetryAttempts = 2);
builder.Services.Configure<HttpStandardResilienceOptions>(
    "catalog-standard", builder.Configuration.GetSection("Catalog"));
builder.Services.AddOptions<HttpStandardResilienceOptions>("orders-standard")
    .BindConfiguration("Orders");

builder.Services.AddHttpClient("catalog")
    .AddStandardResilienceHandler();
builder.Services.AddHttpClient("orders")
    .AddStandardResilienceHandler(builder.Configuration.GetSection("Orders"));
