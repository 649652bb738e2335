var builder = WebApplication.CreateBuilder(args);
builder.Services.AddRequestTimeouts(options =>
{
    options.AddPolicy("fast", TimeSpan.FromSeconds(3));
    options.AddPolicy("slow", new RequestTimeoutPolicy { Timeout = TimeSpan.FromMinutes(5) });
});
builder.Services.AddReverseProxy().LoadFromConfig(builder.Configuration.GetSection("ReverseProxy"));
var app = builder.Build();
app.UseRequestTimeouts();
app.MapReverseProxy();
app.Run();
