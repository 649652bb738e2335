namespace TestSuite.Shared;

public sealed class ClientWrapper
{
    private readonly HttpClient client = new() { BaseAddress = new Uri("http://orders-api") };

    // Waits for the server under test to answer before the suite starts.
    public async Task WaitForServerAsync()
    {
        while (true)
        {
            try
            {
                await client.GetAsync("/healthz");
                return;
            }
            catch (HttpRequestException)
            {
                await Task.Delay(TimeSpan.FromSeconds(1));
            }
        }
    }
}
