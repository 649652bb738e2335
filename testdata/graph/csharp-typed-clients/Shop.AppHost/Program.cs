var builder = DistributedApplication.CreateBuilder(args);
var web = builder.AddProject<Projects.Shop_Web>("web");
builder.AddProject<Projects.Shop_Desktop>("desktop").WithReference(web);
builder.Build().Run();
