var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient();
builder.Services.AddSingleton<HttpClientWrapper>();
builder.Build().Run();
