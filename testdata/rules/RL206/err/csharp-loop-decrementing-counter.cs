// A counter counted down in the condition (`while (retries-- > 0)`), as
// dotnet/arcade's ContainerBase counts `attemptsRemaining` down: 8 tries.
public class Uploader
{
    private readonly IStore _store;

    public async Task UploadAsync(HttpContent content)
    {
        int retries = 8;
        while (retries-- > 0)
        {
            try
            {
                await _store.WriteAsync("upload", content);
                return;
            }
            catch (IOException)
            {
                await Task.Delay(Random.Shared.Next(500, 1500));
            }
        }
    }
}
