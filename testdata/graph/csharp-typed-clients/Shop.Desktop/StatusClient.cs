// A desktop program the AppHost runs (a WinExe, not a library): its calls
// are its own, not the AppHost's.
public sealed class StatusClient
{
    private static readonly HttpClient Http = new() { BaseAddress = new Uri("http://web") };

    public Task<string> StatusAsync() => Http.GetStringAsync("/status");
}
