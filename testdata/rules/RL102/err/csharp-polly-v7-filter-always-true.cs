using Polly;

// A filter that logs and answers true whatever it is given filters
// nothing: every exception is retried, bugs included.
public class Resilient
{
    private readonly ILogger _logger;

    public Resilient(ILogger logger) => _logger = logger;

    public Task<T> Run<T>(Func<Task<T>> action) =>
        Policy
            .Handle<Exception>(ex =>
            {
                _logger.LogWarning("retrying: {Message}", ex.Message);
                return true;
            })
            .WaitAndRetryAsync(3, attempt => TimeSpan.FromSeconds(attempt) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 250)))
            .ExecuteAsync(action);
}
