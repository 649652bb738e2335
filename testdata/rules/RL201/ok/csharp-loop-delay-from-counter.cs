// Seen on dotnet/arcade (ExecWithRetries.cs): the wait is a function of
// the loop counter (6^i - 1 s: 0, 5, 35 s), not its value before the
// loop.
public class ExecWithRetries
{
    public int MaxAttempts { get; set; } = 5;
    public double RetryDelayBase { get; set; } = 6;
    public double RetryDelayConstant { get; set; } = -1;

    public bool Execute(Func<int> run)
    {
        for (int i = 0; i < MaxAttempts; i++)
        {
            if (run() == 0)
            {
                return true;
            }
            TimeSpan delay = TimeSpan.FromSeconds(Math.Pow(RetryDelayBase, i) + RetryDelayConstant);
            try
            {
                Task.Delay(delay).Wait();
            }
            catch (AggregateException e) when (e.InnerException is TaskCanceledException)
            {
                break;
            }
        }
        return false;
    }
}
