// Polly retrying its own timeouts with no circuit breaker inside the
// retry: when the service slows down, every timed-out call is sent again
// (issue 28, Azure Resource Manager 2023).
using System;
using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;
using Polly;
using Polly.Timeout;

public static class CatalogClient
{
    public static void Configure(IServiceCollection services)
    {
        var timeout = Policy.TimeoutAsync<HttpResponseMessage>(TimeSpan.FromSeconds(10));
        var retry = Policy<HttpResponseMessage>
            .Handle<TimeoutRejectedException>()
            .WaitAndRetryAsync(3, n => TimeSpan.FromMilliseconds(200 * Math.Pow(2, n)));

        services.AddHttpClient("catalog")
            .AddPolicyHandler(retry)
            .AddPolicyHandler(timeout);
    }
}
