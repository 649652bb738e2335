namespace Payments.Common;

public static class RetryTimings
{
    public const int RetryDelaySeconds = 2;
    public static readonly TimeSpan BaseDelay = TimeSpan.FromSeconds(RetryDelaySeconds);
}
