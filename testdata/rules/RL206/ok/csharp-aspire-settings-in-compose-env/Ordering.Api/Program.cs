var builder = WebApplication.CreateBuilder(args);

builder.AddSqlServerDbContext<OrderingDbContext>("orderingdb");

var app = builder.Build();
app.Run();
