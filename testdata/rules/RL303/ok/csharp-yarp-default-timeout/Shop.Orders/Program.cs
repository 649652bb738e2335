// Orders reads payments with the standard handler (30 s in all): YARP's
// gateway waits 100 s for an answer when its cluster sets no
// ActivityTimeout, longer than that.
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<PaymentsClient>(c => c.BaseAddress = new Uri("http://payments"))
    .AddStandardResilienceHandler();
var app = builder.Build();
app.Run();

public sealed class PaymentsClient(HttpClient http)
{
    public Task<Payment?> GetAsync(string id) => http.GetFromJsonAsync<Payment>($"/api/payments/{id}");
}
