using Microsoft.Extensions.DependencyInjection;

public static class ServiceDefaults
{
    public static void Add(IServiceCollection services)
    {
        services.ConfigureHttpClientDefaults(http =>
        {
            // retrylint: ignore[RL103] every POST of these services carries an Idempotency-Key header
            http.AddStandardResilienceHandler();
        });
    }
}
