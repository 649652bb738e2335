var builder = WebApplication.CreateBuilder(args);

builder.AddNpgsqlDbContext<CatalogDbContext>("catalogdb");

var app = builder.Build();
app.Run();
