// The connection string named in code, its server in appsettings.json;
// the provider's own retry is the edge's layer.
var builder = WebApplication.CreateBuilder(args);

builder.Services.AddDbContext<OrdersContext>(options =>
    options.UseSqlServer(
        builder.Configuration.GetConnectionString("OrdersDb"),
        sql => sql.EnableRetryOnFailure(maxRetryCount: 3)));

var app = builder.Build();
app.Run();
