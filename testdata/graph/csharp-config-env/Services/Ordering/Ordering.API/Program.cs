var builder = WebApplication.CreateBuilder(args);

builder.Services.AddDbContext<OrderingContext>(options =>
    options.UseSqlServer(
        builder.Configuration.GetConnectionString("Database"),
        sql => sql.EnableRetryOnFailure()));

var app = builder.Build();
app.Run();
