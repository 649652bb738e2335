// The one program that runs the service defaults configures every
// standard handler's options (`ConfigureAll`): the defaults' handler
// leaves POST alone, so the charge is sent once.
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
