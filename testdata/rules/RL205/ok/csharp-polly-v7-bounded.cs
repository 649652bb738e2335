using Microsoft.Data.SqlClient;
using Polly;

public static class Migrations
{
    public static void Run(Action migrate)
    {
        var retries = 5;
        var retry = Policy.Handle<SqlException>()
            .WaitAndRetry(retries, attempt => TimeSpan.FromSeconds(attempt * 2));
        retry.Execute(migrate);
    }
}
