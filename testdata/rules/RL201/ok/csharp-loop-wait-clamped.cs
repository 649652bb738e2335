// Seen on ThreeMammals/Ocelot (src/Infrastructure/DesignPatterns/Retry.cs):
// a negative wait is clamped to zero inside an `if`; the wait is the
// parameter's default, not the clamp's 0.
public static class Retry
{
    public const int DefaultRetryTimes = 3;
    public const int DefaultWaitTimeMilliseconds = 25;

    public static async Task<T> OperationAsync<T>(Func<Task<T>> operation, int retryTimes = DefaultRetryTimes, int waitTime = DefaultWaitTimeMilliseconds)
    {
        if (waitTime < 0)
            waitTime = 0;
        for (int n = 1; n < retryTimes; n++)
        {
            try
            {
                return await operation.Invoke();
            }
            catch (Exception)
            {
                await Task.Delay(waitTime);
                continue;
            }
        }
        return await operation.Invoke();
    }
}
