// dotnet/eShop's Ordering.API shape: the program registers its context
// with the connection Aspire supplies, then Aspire enriches it (EF Core's
// retry on, 6 retries) on the AppHost's reference to that database.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDbContext<LedgerContext>(options =>
{
    options.UseNpgsql(builder.Configuration.GetConnectionString("ledgerdb"));
});
builder.EnrichNpgsqlDbContext<LedgerContext>();
builder.Build().Run();
