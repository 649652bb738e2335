// Aspire.Hosting.Yarp: the gateway's routes are its calls, each through
// YARP (one attempt, 100 s activity timeout).
var builder = DistributedApplication.CreateBuilder(args);

var catalog = builder.AddProject<Projects.Shop_Catalog>("catalog");
var basket = builder.AddProject<Projects.Shop_Basket>("basket");
var search = builder.AddProject<Projects.Shop_Search>("search");

builder.AddYarp("gateway")
    .WithConfiguration(yarp =>
    {
        yarp.AddRoute("/catalog/{**rest}", catalog);
        var basketCluster = yarp.AddCluster(basket);
        yarp.AddRoute("/basket/{**rest}", basketCluster);
        yarp.AddRoute("/search/{**rest}", search.GetEndpoint("http"));
    });

builder.Build().Run();
