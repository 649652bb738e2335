// Five services, each with its own database; whether each retries is
// said by the service's own appsettings, not its code.
var builder = DistributedApplication.CreateBuilder(args);

var sql = builder.AddSqlServer("sql");
var pg = builder.AddPostgres("pg");

builder.AddProject<Projects.Shop_Orders>("orders")
    .WithReference(sql.AddDatabase("ordersdb"));
builder.AddProject<Projects.Shop_Stock>("stock")
    .WithReference(pg.AddDatabase("stockdb"));
builder.AddProject<Projects.Shop_Billing>("billing")
    .WithReference(sql.AddDatabase("billingdb"));
builder.AddProject<Projects.Shop_Audit>("audit")
    .WithReference(sql.AddDatabase("auditdb"));
builder.AddProject<Projects.Shop_Ledger>("ledger")
    .WithReference(pg.AddDatabase("ledgerdb"));

builder.Build().Run();
