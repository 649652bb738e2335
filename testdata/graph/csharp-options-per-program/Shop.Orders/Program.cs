// Orders gives every standard handler it runs one retry.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.Services.ConfigureAll<HttpStandardResilienceOptions>(o => o.Retry.MaxRetryAttempts = 1);
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"));
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<Payment?> GetAsync(string id) => http.GetFromJsonAsync<Payment>($"/api/payments/{id}");
}
