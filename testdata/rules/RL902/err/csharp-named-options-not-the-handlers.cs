// Options named after the client, not after its handler: the typed
// client's handler reads `ICatalogClient-standard` (the client is named
// after its first type argument), so the 30 s attempt timeout never
// applies; `nameof(ICatalogClient)` is the client's name, not its
// handler's options' (a public project wrote `nameof(LightRagClient)`).
var builder = WebApplication.CreateBuilder(args);

builder.Services.Configure<HttpStandardResilienceOptions>("catalog",
    o => o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(30));
builder.Services.Configure<HttpStandardResilienceOptions>(nameof(ICatalogClient),
    o => o.Retry.MaxRetryAttempts = 1);
builder.Services.AddOptions<HttpStandardResilienceOptions>("CatalogClient-standard")
    .Configure(o => o.Retry.MaxRetryAttempts = 2);

builder.Services.AddHttpClient<ICatalogClient, CatalogClient>()
    .AddStandardResilienceHandler();
