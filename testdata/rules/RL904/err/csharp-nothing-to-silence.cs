using Microsoft.Extensions.DependencyInjection;

public static class ServiceDefaults
{
    public static void Add(IServiceCollection services)
    {
        services.ConfigureHttpClientDefaults(http =>
        {
            /* retrylint: ignore[RL205] the standard handler is bounded: nothing to silence */
            http.AddStandardResilienceHandler(o => o.Retry.DisableForUnsafeHttpMethods());
        });
    }
}
