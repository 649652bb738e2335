// The options action's own `EnableRetryOnFailure(3)` runs after Aspire's
// and wins.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<StockDbContext>(
    "stockdb",
    sqlServerOptionsAction: sql => sql.EnableRetryOnFailure(3));
var app = builder.Build();
app.Run();
