// The standard handler's options bound where no handler reads them: each
// handler reads the options named `{client}-standard`, so the section's
// ten retries and the lambda's 20 s attempt timeout never apply.
var builder = WebApplication.CreateBuilder(args);

builder.Services.Configure<HttpStandardResilienceOptions>(
    builder.Configuration.GetSection("HttpResilience"));
builder.Services.AddOptions<HttpStandardResilienceOptions>()
    .Configure(o => o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(20));

builder.Services.AddHttpClient<CatalogClient>(c => c.BaseAddress = new("http://catalog"))
    .AddStandardResilienceHandler();
