// `ShouldRetryAfterHeader = false`: 429 and 503 are still retried, on the
// handler's own exponential back-off, whatever the server said.
using Microsoft.Extensions.DependencyInjection;

public static class Registration
{
    public static void AddCatalog(this IServiceCollection services)
    {
        services.AddHttpClient("catalog")
            .AddStandardResilienceHandler(o =>
            {
                o.Retry.ShouldRetryAfterHeader = false;
                o.Retry.DisableForUnsafeHttpMethods();
            });
    }
}
