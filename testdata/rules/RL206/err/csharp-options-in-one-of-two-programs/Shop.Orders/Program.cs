// Orders configures every standard handler it runs (the service
// defaults' one included) with ten retries: 11 attempts on its calls.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.ConfigureAll<HttpStandardResilienceOptions>(o =>
{
    o.Retry.MaxRetryAttempts = 10;
    o.Retry.DisableForUnsafeHttpMethods();
});
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"));
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<Payment?> GetAsync(string id) => http.GetFromJsonAsync<Payment>($"/api/payments/{id}");
}
