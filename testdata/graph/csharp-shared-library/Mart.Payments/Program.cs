// No call and no retry of its own: Payments publishes through the shared
// bus, whose pipeline is in Mart.Bus.
var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddSingleton<Mart.Bus.EventBus>();
builder.Build().Run();
