// Polly retrying failed connections only (`HttpRequestException`), not its
// timeouts: a retry of a request the service never answered slowly.
using System;
using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;
using Polly;

public static class CatalogClient
{
    public static void Configure(IServiceCollection services)
    {
        var retry = Policy<HttpResponseMessage>
            .Handle<HttpRequestException>()
            .WaitAndRetryAsync(3, n => TimeSpan.FromMilliseconds(200 * Math.Pow(2, n)));

        services.AddHttpClient("catalog")
            .AddPolicyHandler(retry);
    }
}
