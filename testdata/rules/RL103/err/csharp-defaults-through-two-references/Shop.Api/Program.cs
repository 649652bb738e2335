// The program references Shop.Platform, which references Shop.Defaults:
// the service defaults run in Shop.Api two references away, and its POST
// goes through their standard handler.
var builder = WebApplication.CreateBuilder(args);
builder.AddPlatform();
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"));
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<HttpResponseMessage> ChargeAsync(Charge charge) => http.PostAsJsonAsync("/api/charges", charge);
}
