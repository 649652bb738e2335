// The edge builds its one cluster in code and forwards audit requests
// itself through IHttpForwarder.
using Yarp.ReverseProxy.Configuration;
using Yarp.ReverseProxy.Forwarder;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpForwarder();
builder.Services.AddReverseProxy().LoadFromMemory(Routes(), Clusters());
var app = builder.Build();
var client = new HttpMessageInvoker(new SocketsHttpHandler());
app.Map("/audit/{**rest}", async (HttpContext context, IHttpForwarder forwarder) =>
{
    await forwarder.SendAsync(context, "http://audit/", client, ForwarderRequestConfig.Empty);
});
app.MapReverseProxy();
app.Run();

static RouteConfig[] Routes() =>
[
    new RouteConfig { RouteId = "billing", ClusterId = "billing", Match = new RouteMatch { Path = "/billing/{**rest}" } },
];

static ClusterConfig[] Clusters() =>
[
    new ClusterConfig
    {
        ClusterId = "billing",
        HttpRequest = new ForwarderRequestConfig { ActivityTimeout = TimeSpan.FromSeconds(20) },
        Destinations = new Dictionary<string, DestinationConfig>
        {
            { "billing-1", new DestinationConfig { Address = "https://billing" } },
        },
    },
];
