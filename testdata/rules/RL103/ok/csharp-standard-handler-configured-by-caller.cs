using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Http.Resilience;

// From kallebelins/mvp24hours-dotnet (NativeHttpResilienceExtensions.cs,
// NativeResilienceBuilder.cs): the options are set by a delegate the
// caller passes, or handed to one, so which methods stay retried is not
// known here (the caller may call DisableForUnsafeHttpMethods).
public static class NativeHttpResilienceExtensions
{
    public static IHttpClientBuilder AddResilientClient(
        this IServiceCollection services,
        string name,
        Action<HttpStandardResilienceOptions> configureResilience)
    {
        IHttpClientBuilder builder = services.AddHttpClient(name);
        builder.AddStandardResilienceHandler(configureResilience);
        return builder;
    }

    public static IHttpClientBuilder AddConfigured(
        this IHttpClientBuilder builder,
        Action<HttpRetryStrategyOptions>? configureRetry)
    {
        builder.AddStandardResilienceHandler(options =>
        {
            options.Retry.MaxRetryAttempts = 2;
            configureRetry?.Invoke(options.Retry);
        });
        return builder;
    }
}
