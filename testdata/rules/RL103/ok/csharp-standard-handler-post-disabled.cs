using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;

public static class Clients
{
    public static void Add(IServiceCollection services)
    {
        services.AddHttpClient<OrderingClient>(c => c.BaseAddress = new Uri("http://ordering-api"))
            .AddStandardResilienceHandler(o => o.Retry.DisableFor(HttpMethod.Post, HttpMethod.Patch));
    }
}
