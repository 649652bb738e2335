// Azure Resource Manager, West Europe, 2023-03-23: lock contention raised the
// latency of ARM's outgoing calls, "leading to timeouts. These timeouts caused
// both internal and external clients to retry requests, further increasing
// load" (a positive feedback loop). The write-up gives no code: this is an
// internal client retrying on timeout, immediately, as that sentence states.
using System;
using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;
using Polly;
using Polly.Timeout;

public static class ArmClientSetup
{
    public static void Configure(IServiceCollection services)
    {
        var timeout = Policy.TimeoutAsync<HttpResponseMessage>(TimeSpan.FromSeconds(30));
        var retry = Policy<HttpResponseMessage>
            .Handle<TimeoutRejectedException>()
            .Or<HttpRequestException>()
            .RetryAsync(3);

        services.AddHttpClient("arm", c => c.BaseAddress = new Uri("https://westeurope.management.azure.com/"))
            .AddPolicyHandler(retry)
            .AddPolicyHandler(timeout);
    }
}
