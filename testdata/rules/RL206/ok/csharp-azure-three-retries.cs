builder.Services.AddAzureClients(clients =>
{
    clients.ConfigureDefaults(o => o.Retry.MaxRetries = 3);
});
