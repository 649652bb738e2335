using Microsoft.Extensions.DependencyInjection;

public static class Clients
{
    public static void Add(IServiceCollection services)
    {
        services.AddHttpClient("catalog")
            .AddStandardResilienceHandler(o =>
            {
                o.Retry.MaxRetryAttempts = 8;
                o.Retry.DisableForUnsafeHttpMethods();
            });
    }
}
