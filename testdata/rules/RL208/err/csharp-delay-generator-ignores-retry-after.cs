// A `DelayGenerator` on `HttpRetryStrategyOptions` replaces the one
// `ShouldRetryAfterHeader` installs; this one looks only at the attempt
// number, so the header is never waited.
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Http.Resilience;

public static class Registration
{
    public static void AddCatalog(this IServiceCollection services)
    {
        services.AddHttpClient("catalog")
            .AddResilienceHandler("catalog", builder =>
            {
                builder.AddRetry(new HttpRetryStrategyOptions
                {
                    MaxRetryAttempts = 3,
                    DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(
                        TimeSpan.FromSeconds(Math.Pow(2, args.AttemptNumber)) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 500))),
                });
            });
    }
}
