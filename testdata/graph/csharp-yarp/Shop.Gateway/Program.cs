// The gateway's routes and clusters are in appsettings.json; the legacy
// site is forwarded to directly, with a 5 s activity timeout. The standard
// handler of every HttpClient (Shop.Defaults) is not on YARP's forwarding:
// YARP makes its own HttpMessageInvoker (ForwarderHttpClientFactory), not
// one of IHttpClientFactory.
using Yarp.ReverseProxy.Forwarder;

var builder = WebApplication.CreateBuilder(args);
builder.AddDefaults();
builder.Services.AddReverseProxy()
    .LoadFromConfig(builder.Configuration.GetSection("ReverseProxy"));
var app = builder.Build();
app.MapReverseProxy();
var legacy = new ForwarderRequestConfig { ActivityTimeout = TimeSpan.FromSeconds(5) };
app.MapForwarder("/legacy/{**rest}", "http://legacy-site", legacy);
app.Run();
