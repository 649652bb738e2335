// .NET Aspire 8.0 previews: `MaxRetryCount = 10` is ten retries after
// the first try, eleven attempts.
var builder = WebApplication.CreateBuilder(args);

builder.AddNpgsqlDbContext<CatalogDbContext>("catalogdb", settings => settings.MaxRetryCount = 10);

var app = builder.Build();
app.Run();
