// The standard handler told to retry a 404 as well as the transient
// failures: a missing item is asked for four times.
var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient<CatalogClient>(c => c.BaseAddress = new("http://catalog"))
    .AddStandardResilienceHandler(o =>
    {
        o.Retry.ShouldHandle = args => ValueTask.FromResult(
            HttpClientResiliencePredicates.IsTransient(args.Outcome)
            || args.Outcome.Result?.StatusCode == HttpStatusCode.NotFound);
        o.Retry.UseJitter = true;
    });
