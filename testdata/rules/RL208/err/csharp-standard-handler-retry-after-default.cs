// The standard handler's retry waits the server's Retry-After as it is
// (`ShouldRetryAfterHeader` is true by default): bounded by the 30 s total
// request timeout, but with no random wait on top, so every client told
// "Retry-After: 5" comes back in the same second.
using Microsoft.Extensions.DependencyInjection;

public static class ServiceDefaults
{
    public static IServiceCollection AddDefaults(this IServiceCollection services)
    {
        services.ConfigureHttpClientDefaults(http =>
        {
            http.AddStandardResilienceHandler(options =>
            {
                options.Retry.DisableForUnsafeHttpMethods();
            });
        });
        return services;
    }
}
