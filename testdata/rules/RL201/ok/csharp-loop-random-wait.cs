// A wait drawn at random (100 to 400 ms) is a wait: the draw is not
// "no delay" (found writing the RL206 loop fixtures: the draw, taken at
// its nominal 0, was read as retrying at once).
public class Fetcher
{
    private readonly IStore _store;

    public async Task<string> GetAsync()
    {
        for (int attempt = 0; attempt < 3; attempt++)
        {
            try
            {
                return await _store.ReadAsync("a");
            }
            catch (IOException)
            {
                await Task.Delay(Random.Shared.Next(100, 400));
            }
        }
        return null;
    }
}
