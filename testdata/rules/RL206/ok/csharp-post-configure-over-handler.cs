// The handler writes 8 retries, and a post-configuration of its options
// (run after every `Configure`, Microsoft.Extensions.Options
// `OptionsFactory.Create`) sets 2: 3 attempts.
using Microsoft.Extensions.DependencyInjection;

public static class Clients
{
    public static void Add(IServiceCollection services)
    {
        services.AddHttpClient<ICatalogClient, CatalogClient>()
            .AddStandardResilienceHandler(o => o.Retry.MaxRetryAttempts = 8);
        services.PostConfigure<HttpStandardResilienceOptions>("ICatalogClient-standard",
            o => o.Retry.MaxRetryAttempts = 2);
    }
}
