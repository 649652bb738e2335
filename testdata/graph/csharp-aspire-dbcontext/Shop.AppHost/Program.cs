// Three services, each with its own database (kbr-ucl/Forskningensdoegn2025Aspire's
// shape: `sql.AddDatabase(..)` referenced by the service that opens it).
var builder = DistributedApplication.CreateBuilder(args);

var sql = builder.AddSqlServer("sql");
var ordersDb = sql.AddDatabase("ordersdb");
var billingDb = builder.AddPostgres("pg").AddDatabase("billingdb");
var stockDb = sql.AddDatabase("stockdb");
var bus = builder.AddRabbitMQ("bus");

builder.AddProject<Projects.Shop_Orders>("orders")
    .WithReference(ordersDb);
builder.AddProject<Projects.Shop_Billing>("billing")
    .WithReference(billingDb)
    .WithReference(bus);
builder.AddProject<Projects.Shop_Stock>("stock")
    .WithReference(stockDb);

builder.Build().Run();
