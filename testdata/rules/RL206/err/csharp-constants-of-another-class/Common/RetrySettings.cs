namespace Shop.Common;

// A file of constants only: no call, no retry of its own.
public static class RetrySettings
{
    public const string ClientName = "catalog";
    public const int MaxRetries = 8;
    public static readonly double BackoffSeconds = 1.5;
}
