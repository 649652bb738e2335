using Microsoft.Extensions.DependencyInjection;

public static class ServiceDefaults
{
    public static IServiceCollection AddDefaults(this IServiceCollection services)
    {
        services.ConfigureHttpClientDefaults(http =>
        {
            http.AddStandardResilienceHandler(options =>
            {
                // POST, PATCH, PUT, DELETE and CONNECT are not retried.
                options.Retry.DisableForUnsafeHttpMethods();
            });
        });
        return services;
    }
}
