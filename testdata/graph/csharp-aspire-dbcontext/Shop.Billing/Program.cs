// Retries turned off in the settings action; the HTTP clients' standard
// handler is no layer of the database or the broker calls.
var builder = WebApplication.CreateBuilder(args);
builder.Services.ConfigureHttpClientDefaults(http => http.AddStandardResilienceHandler());
builder.AddNpgsqlDbContext<BillingDbContext>("billingdb", settings => settings.DisableRetry = true);
var app = builder.Build();
app.Run();
