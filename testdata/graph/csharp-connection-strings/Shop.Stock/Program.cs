// Read into a local first, then handed to the provider; the server is
// only in the environment's settings (the base file has none).
var builder = WebApplication.CreateBuilder(args);

var stockConnection = builder.Configuration.GetConnectionString("Stock");
builder.Services.AddDbContext<StockContext>(o => o.UseNpgsql(stockConnection));

// Named in code, set nowhere: no edge, nothing guessed.
var reports = builder.Configuration.GetConnectionString("Reports");
builder.Services.AddDbContext<ReportsContext>(o => o.UseNpgsql(reports));

builder.Build().Run();
