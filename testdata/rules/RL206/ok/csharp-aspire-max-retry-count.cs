// .NET Aspire 8.0 previews: the EF Core integrations' settings had
// `MaxRetryCount` (default 6, 0 turns the retry off) instead of
// `DisableRetry`. Three retries are four attempts, and none is one.
var builder = WebApplication.CreateBuilder(args);

builder.AddNpgsqlDbContext<CatalogDbContext>("catalogdb", settings => settings.MaxRetryCount = 3);
builder.AddSqlServerDbContext<OrdersDbContext>("ordersdb", s =>
{
    s.MaxRetryCount = 0;
});

var app = builder.Build();
app.Run();
