namespace Blocks.Polly;

using global::Polly;

public static class Retries
{
    public static T WithRetries<T>(this object source, Func<T> action, int count = 3)
    {
        var policy = Policy
            .Handle<Exception>()
            .Retry(count);
        return policy.Execute(action);
    }
}
