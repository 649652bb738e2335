var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();
app.MapGet("/products", () => Results.Ok());
app.Run();
