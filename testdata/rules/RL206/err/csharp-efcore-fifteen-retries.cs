using Microsoft.EntityFrameworkCore;

// From eShopOnContainers (Catalog.API/Startup.cs): 15 retries of every
// transient SQL error, each waiting up to 30 s.
public static class Db
{
    public static void Configure(DbContextOptionsBuilder options, string connectionString) =>
        options.UseSqlServer(connectionString, sqlOptions =>
        {
            sqlOptions.EnableRetryOnFailure(maxRetryCount: 15, maxRetryDelay: TimeSpan.FromSeconds(30), errorNumbersToAdd: null);
        });
}
