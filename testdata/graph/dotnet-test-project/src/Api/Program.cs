var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient("catalog", c => c.BaseAddress = new Uri("http://catalog-api"));
var app = builder.Build();
app.MapGet("/items", async (IHttpClientFactory f) => await f.CreateClient("catalog").GetStringAsync("/items"));
app.Run();
