// Twenty retries of every Azure SDK call, configured for all clients.
builder.Services.AddAzureClients(clients =>
{
    clients.AddBlobServiceClient(builder.Configuration.GetSection("Storage"));
    clients.ConfigureDefaults(o =>
    {
        o.Retry.MaxRetries = 20;
        o.Retry.NetworkTimeout = TimeSpan.FromSeconds(30);
    });
});
