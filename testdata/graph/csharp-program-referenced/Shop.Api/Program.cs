// The API queues work through the worker's own publisher (duncan-G/ThePlot:
// the gRPC server references the content-generation worker as a project
// and sends through its ContentGenerationWorkPublisher).
using Shop.Worker;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton(new ServiceBusClient(builder.Configuration["ServiceBus"]));
builder.Services.AddSingleton<WorkPublisher>();
var app = builder.Build();
app.MapPost("/work", async (WorkPublisher publisher, Work w) => await publisher.PublishAsync(w.Id));
app.Run();
