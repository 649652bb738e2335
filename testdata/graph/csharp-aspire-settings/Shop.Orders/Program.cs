// Turned off for every DbContext of the integration in appsettings.json.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<OrdersDbContext>("ordersdb");
builder.Build().Run();
