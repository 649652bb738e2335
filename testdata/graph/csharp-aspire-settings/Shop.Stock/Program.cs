// Aspire 8's `Retry`, turned off in the section of this DbContext type.
var builder = WebApplication.CreateBuilder(args);
builder.AddNpgsqlDbContext<StockDbContext>("stockdb");
builder.Build().Run();
