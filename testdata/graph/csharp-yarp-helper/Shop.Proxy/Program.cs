// Clusters built by a helper from its parameters: one cluster per call,
// each with its own address and activity timeout.
using Yarp.ReverseProxy.Configuration;
using Yarp.ReverseProxy.Forwarder;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddReverseProxy().LoadFromMemory(
    [new RouteConfig { RouteId = "all", ClusterId = "catalog", Match = new RouteMatch { Path = "/{**rest}" } }],
    [
        Cluster("catalog", "http://catalog-api"),
        Cluster(address: "http://orders-api", id: "orders"),
    ]);
var app = builder.Build();
app.MapReverseProxy();
app.Run();

static ClusterConfig Cluster(string id, string address) => new()
{
    ClusterId = id,
    Destinations = new Dictionary<string, DestinationConfig>
    {
        ["d1"] = new DestinationConfig { Address = address },
    },
    HttpRequest = new ForwarderRequestConfig { ActivityTimeout = TimeSpan.FromSeconds(15) },
};
