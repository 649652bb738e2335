// `while (true)` ended by the catch's filter: bounded.
public class Warmup
{
    public static async Task WaitForDatabaseAsync(DbContext db)
    {
        var attempt = 0;
        while (true)
        {
            try
            {
                await db.Database.OpenConnectionAsync();
                return;
            }
            catch (Exception) when (attempt < 5)
            {
                attempt++;
                await Task.Delay(TimeSpan.FromSeconds(Math.Pow(2, attempt)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 500)));
            }
        }
    }
}
