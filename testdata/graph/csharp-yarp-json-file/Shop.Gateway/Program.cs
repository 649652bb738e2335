// The proxy's routes and clusters in a JSON file of their own, added to
// the configuration by the program.
var builder = WebApplication.CreateBuilder(args);
builder.Configuration.AddJsonFile("proxy.json", optional: false, reloadOnChange: true);
builder.Services.AddReverseProxy()
    .LoadFromConfig(builder.Configuration.GetSection("ReverseProxy"));
var app = builder.Build();
app.MapReverseProxy();
app.Run();
