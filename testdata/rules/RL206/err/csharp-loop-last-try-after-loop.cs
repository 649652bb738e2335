// Seen on ThreeMammals/Ocelot (src/Infrastructure/DesignPatterns/Retry.cs):
// the loop tries `retryTimes - 1` times and the same call is made once
// more after it ("Retrying lastly"), so the operation runs `retryTimes`
// times: 6 here, not the loop's 5.
public static class Retry
{
    public const int DefaultRetryTimes = 6;

    public static async Task<T> OperationAsync<T>(Func<Task<T>> operation, int retryTimes = DefaultRetryTimes)
    {
        for (int n = 1; n < retryTimes; n++)
        {
            try
            {
                return await operation.Invoke();
            }
            catch (HttpRequestException)
            {
                await Task.Delay(Random.Shared.Next(100, 400));
                continue;
            }
        }
        return await operation.Invoke();
    }
}
