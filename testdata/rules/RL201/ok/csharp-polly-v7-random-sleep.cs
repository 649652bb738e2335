// Polly v7: a sleep drawn at random for every retry is a wait, not a retry
// at once.
public static class Policies
{
    private static readonly Random Jitterer = new Random();

    public static IAsyncPolicy Build() =>
        Policy.Handle<HttpRequestException>()
            .WaitAndRetryAsync(3, _ => TimeSpan.FromMilliseconds(Jitterer.Next(100, 400)));
}
