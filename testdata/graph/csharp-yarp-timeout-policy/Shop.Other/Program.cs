// Another program's policy of the same name as one the gateway's routes
// name: never the gateway's.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddRequestTimeouts(o => o.AddPolicy("unknown-policy", TimeSpan.FromSeconds(1)));
var app = builder.Build();
app.UseRequestTimeouts();
app.Run();
