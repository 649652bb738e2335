namespace Shop.Common;

// Constants only: no call, no retry of its own.
public static class RetrySettings
{
    private const int Rounds = 3;
    public const int MaxRetries = Rounds * 2;
    public const int DelaySeconds = (1 + 1);
}
