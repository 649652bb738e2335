// The wait doubles after each failure (`delay *= 2`), with no random part.
public class Downloader(HttpClient http)
{
    public async Task<byte[]> DownloadAsync()
    {
        var delay = TimeSpan.FromSeconds(1);
        for (var attempt = 0; attempt < 4; attempt++)
        {
            try
            {
                return await http.GetByteArrayAsync("http://artifacts/api/blob");
            }
            catch (HttpRequestException)
            {
                await Task.Delay(delay);
                delay *= 2;
            }
        }
        throw new TimeoutException();
    }
}
