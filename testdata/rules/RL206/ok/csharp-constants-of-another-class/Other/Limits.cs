namespace Shop.Other;

public static class Limits
{
    public const int MaxRetries = 12;
}
