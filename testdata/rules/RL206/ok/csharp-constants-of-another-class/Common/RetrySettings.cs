namespace Shop.Common;

public static class RetrySettings
{
    public const int MaxRetries = 3;
}
