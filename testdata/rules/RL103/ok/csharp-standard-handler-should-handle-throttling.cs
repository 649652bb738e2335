// Only 429 is retried, for every method: the server refused the request
// before doing anything, so a POST is not repeated after it was processed.
var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new("http://orders"))
    .AddStandardResilienceHandler(o =>
        o.Retry.ShouldHandle = args => ValueTask.FromResult(
            args.Outcome.Result?.StatusCode == HttpStatusCode.TooManyRequests));

public sealed class OrdersClient(HttpClient http)
{
    public Task<HttpResponseMessage> Place(Order o) => http.PostAsJsonAsync("/orders", o);
}
