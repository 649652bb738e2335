// Azure SDK client retries in the default exponential mode: each delay
// varies by ±20% (Azure.Core's RetryPolicy).
using Azure.Core;
using Azure.Security.KeyVault.Secrets;

var client = new SecretClient(vaultUri, credential, new SecretClientOptions
{
    Retry =
    {
        MaxRetries = 4,
        Delay = TimeSpan.FromSeconds(1),
        MaxDelay = TimeSpan.FromSeconds(20),
        Mode = RetryMode.Exponential,
    },
});
