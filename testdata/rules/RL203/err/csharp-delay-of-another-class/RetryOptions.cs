namespace Ordering.Infrastructure;

public static class RetryOptions
{
    public const int DelaySeconds = 3;
    public const int Count = 4;
}
