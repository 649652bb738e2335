var builder = DistributedApplication.CreateBuilder(args);

var rabbit = builder.AddRabbitMQ("eventbus");

var orders = builder.AddProject<Projects.Mart_Orders>("orders")
    .WithReference(rabbit);

builder.AddProject<Projects.Mart_Payments>("payments")
    .WithReference(rabbit)
    .WithReference(orders);

builder.Build().Run();
