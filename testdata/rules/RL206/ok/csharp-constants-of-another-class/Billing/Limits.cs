namespace Shop.Billing;

public static class Limits
{
    public const int MaxRetries = 2;
}
