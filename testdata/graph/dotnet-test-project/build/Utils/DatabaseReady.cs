using System.Data.SqlClient;

public static class DatabaseReady
{
    // Waits for the database container the build starts before it runs the migrations.
    public static void Wait(string connectionString)
    {
        using var connection = new SqlConnection(connectionString);
        while (true)
        {
            try
            {
                connection.Open();
                return;
            }
            catch (SqlException)
            {
                Thread.Sleep(2000);
            }
        }
    }
}
