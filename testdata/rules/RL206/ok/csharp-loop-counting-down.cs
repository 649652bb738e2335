// Counters counted down: `for (i = 3; i > 0; i--)` tries 3 times,
// `while (--left > 0)` with 4 tries 3 times, `while (remaining > 0)`
// with `remaining--` in the catch tries 5 times; none is more than 5.
public class Fetcher
{
    private readonly IStore _store;

    public async Task<string> GetAsync()
    {
        for (int i = 3; i > 0; i--)
        {
            try
            {
                return await _store.ReadAsync("a");
            }
            catch (IOException)
            {
                await Task.Delay(Random.Shared.Next(100, 300));
            }
        }
        return null;
    }

    public async Task<string> GetBAsync()
    {
        int left = 4;
        while (--left > 0)
        {
            try
            {
                return await _store.ReadAsync("b");
            }
            catch (IOException)
            {
                await Task.Delay(Random.Shared.Next(100, 300));
            }
        }
        return null;
    }

    public async Task<string> GetCAsync()
    {
        int remaining = 5;
        while (remaining > 0)
        {
            try
            {
                return await _store.ReadAsync("c");
            }
            catch (IOException)
            {
                remaining--;
                await Task.Delay(Random.Shared.Next(100, 300));
            }
        }
        return null;
    }
}
