using Microsoft.Extensions.DependencyInjection;

public static class Clients
{
    public static void Add(IServiceCollection services)
    {
        services.AddHttpClient<BasketClient>()
            .AddStandardResilienceHandler(o =>
            {
                // 45 s per attempt, 30 s in all: options validation throws at start-up.
                o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(45);
                o.Retry.DisableForUnsafeHttpMethods();
            });
    }
}
