namespace Shop.Contracts;

// The queue names both services use: a file with nothing else in it.
public static class Queues
{
    public const string Refunds = "refunds";
}
