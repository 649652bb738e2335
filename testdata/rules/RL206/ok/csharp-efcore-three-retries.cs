using Microsoft.EntityFrameworkCore;

public static class Db
{
    public static void Configure(DbContextOptionsBuilder options, string connectionString) =>
        options.UseNpgsql(connectionString, npgsql => npgsql.EnableRetryOnFailure(3));
}
