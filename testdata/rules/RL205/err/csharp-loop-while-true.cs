// Retries for ever: nothing in the catch ever gives up.
public class Warmup
{
    public static async Task WaitForDatabaseAsync(DbContext db)
    {
        while (true)
        {
            try
            {
                await db.Database.OpenConnectionAsync();
                return;
            }
            catch (Exception)
            {
                await Task.Delay(TimeSpan.FromSeconds(2));
            }
        }
    }
}
