var builder = DistributedApplication.CreateBuilder(args);

var redis = builder.AddRedis("basketcache");
var rabbit = builder.AddRabbitMQ("eventbus");
var catalogDb = builder.AddPostgres("postgres").AddDatabase("catalogdb");

var catalog = builder.AddProject<Projects.AspireShop_CatalogService>("catalogservice")
    .WithReference(catalogDb)
    .WithReference(rabbit);

var basket = builder.AddProject<Projects.AspireShop_BasketService>("basketservice")
    .WithReference(redis)
    .WithReference(rabbit)
    .WithReference(catalog);

catalog.WithReference(basket);

builder.Build().Run();
