// The program registers its own DbContext; Aspire's enrichment turns EF
// Core's retrying strategy on for it (6 retries, the default).
var builder = WebApplication.CreateBuilder(args);

var connectionString = builder.Configuration.GetConnectionString("BillingDb");
builder.Services.AddDbContext<BillingContext>((sp, options) =>
{
    options.UseNpgsql(connectionString);
});
builder.EnrichNpgsqlDbContext<BillingContext>();

builder.Build().Run();
