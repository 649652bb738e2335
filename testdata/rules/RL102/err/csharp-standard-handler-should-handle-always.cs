// A predicate that answers true whatever happened: every failure is
// retried (and so is every success).
var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient("reports")
    .AddStandardResilienceHandler()
    .Configure(o => o.Retry.ShouldHandle = _ => PredicateResult.True());
