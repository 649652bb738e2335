// The standard handler on the typed client `PaymentsClient`, whose one
// call is a POST: a payment whose answer timed out is taken again.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"))
    .AddStandardResilienceHandler();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<HttpResponseMessage> ChargeAsync(Charge charge) =>
        http.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/api/charges") { Content = JsonContent.Create(charge) });
}
