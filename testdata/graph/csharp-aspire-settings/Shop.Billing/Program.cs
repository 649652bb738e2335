// Turned off only on a developer's machine: the service retries where it
// runs.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<BillingDbContext>("billingdb");
builder.Build().Run();
