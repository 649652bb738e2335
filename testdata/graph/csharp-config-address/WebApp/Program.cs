var builder = WebApplication.CreateBuilder(args);
builder.Services.ConfigureHttpClientDefaults(http => http.AddStandardResilienceHandler());
builder.Services.AddHttpClient<ICustomerApi, CustomerApi>();
builder.Services.AddHttpClient<OrdersClient>(c =>
    c.BaseAddress = new Uri(builder.Configuration["Services:Orders"]!));
builder.Services.AddHttpClient<BillingClient>(c =>
    c.BaseAddress = new Uri(builder.Configuration["Services:Billing"]!));
builder.Services.AddHttpClient<ReportsClient>(c =>
    c.BaseAddress = new Uri(builder.Configuration["Services:Reports"]!));
var app = builder.Build();
app.Run();
