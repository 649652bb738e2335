var builder = WebApplication.CreateBuilder(args);
// The handler's options are bound to a section of appsettings.json.
builder.Services.AddHttpClient("catalog", c => c.BaseAddress = new Uri("http://catalog"))
    .AddStandardResilienceHandler(builder.Configuration.GetSection("HttpClients").GetSection("Catalog"));
// Configured after it is added: the same binding.
builder.Services.AddHttpClient("stock", c => c.BaseAddress = new Uri("http://stock"))
    .AddStandardResilienceHandler()
    .Configure(builder.Configuration.GetSection("HttpClients:Stock"));
var app = builder.Build();
app.MapGet("/", async (IHttpClientFactory f) => await f.CreateClient("catalog").GetStringAsync("/items"));
app.Run();
