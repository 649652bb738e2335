// The worker's own start-up: its status call is the worker's, not the
// API's, though the API references this project.
using Azure.Messaging.ServiceBus;
using Shop.Worker;

var builder = Host.CreateApplicationBuilder(args);
var client = new ServiceBusClient(builder.Configuration["ServiceBus"]);
builder.Services.AddSingleton(client);
builder.Services.AddSingleton<WorkPublisher>();
var processor = client.CreateProcessor("work-items");
processor.ProcessMessageAsync += async args =>
{
    var http = new HttpClient();
    await http.GetStringAsync("http://status-board/api/ping");
};
await processor.StartProcessingAsync();
builder.Build().Run();
