// A `DelayGenerator` on `HttpRetryStrategyOptions` that hands the outcome
// to a helper of another file: whether it reads the header is not known
// here, so nothing is said.
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
                    DelayGenerator = args => Delays.FromResponse(args.Outcome, args.AttemptNumber),
                });
            });
    }
}
