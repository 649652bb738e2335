// Aspire's integration without an AppHost: it reads the connection string
// by name itself, from the program's settings, and retries by default.
var builder = WebApplication.CreateBuilder(args);
builder.AddSqlServerDbContext<PaymentsContext>("PaymentsDb");
builder.Build().Run();
