// Aspire's SQL Server integration turns EF Core's retrying strategy on
// (`EnableRetryOnFailure()`: 6 retries) unless `DisableRetry` is set.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<OrdersDbContext>("ordersdb");
var app = builder.Build();
app.Run();
