// The options named after the client (`catalog-standard`) are the ones
// its standard handler reads: the handler written with no settings makes
// 11 attempts (dotnet/extensions: the handler reads
// `monitor.Get("{client}-standard")`).
var builder = WebApplication.CreateBuilder(args);

builder.Services.Configure<HttpStandardResilienceOptions>("catalog-standard", o =>
{
    o.Retry.MaxRetryAttempts = 10;
    o.Retry.DisableForUnsafeHttpMethods();
});

builder.Services.AddHttpClient("catalog", c => c.BaseAddress = new Uri("http://catalog"))
    .AddStandardResilienceHandler();
