using Microsoft.Data.SqlClient;
using Polly;

public static class Migrations
{
    public static void Run(Action migrate)
    {
        // Retries for ever: a wrong connection string keeps the service in a loop.
        var retry = Policy.Handle<SqlException>()
            .WaitAndRetryForever(attempt => TimeSpan.FromSeconds(5));
        retry.Execute(migrate);
    }
}
