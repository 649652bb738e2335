// Orders posts, and its options leave unsafe methods alone for every
// standard handler it runs (the service defaults' one included).
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.ConfigureAll<HttpStandardResilienceOptions>(o => o.Retry.DisableForUnsafeHttpMethods());
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"));
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<HttpResponseMessage> ChargeAsync(Charge charge) => http.PostAsJsonAsync("/api/charges", charge);
}
