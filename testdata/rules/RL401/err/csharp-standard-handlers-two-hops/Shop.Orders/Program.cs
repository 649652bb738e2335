// Orders reads payments with the standard handler and 5 retries.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"))
    .AddStandardResilienceHandler(o => o.Retry.MaxRetryAttempts = 5);
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<Payment?> GetAsync(string id) => http.GetFromJsonAsync<Payment>($"/api/payments/{id}");
}
