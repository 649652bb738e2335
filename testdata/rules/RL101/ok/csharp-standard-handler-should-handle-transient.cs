// Transient failures and throttling only: nothing a client got wrong.
var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient("inventory")
    .AddStandardResilienceHandler(o =>
    {
        o.Retry.ShouldHandle = args => ValueTask.FromResult(
            HttpClientResiliencePredicates.IsTransient(args.Outcome)
            || (int?)args.Outcome.Result?.StatusCode == 429
            || args.Outcome.Exception is TimeoutException);
    });
