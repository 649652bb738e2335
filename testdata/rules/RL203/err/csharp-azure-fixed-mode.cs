// Azure SDK client retries in `RetryMode.Fixed`: every client of the
// fleet waits the same 2 s, with no random part, after a throttled
// storage account answers 503.
using Azure.Core;
using Azure.Storage.Blobs;

var options = new BlobClientOptions();
options.Retry.Mode = RetryMode.Fixed;
options.Retry.Delay = TimeSpan.FromSeconds(2);
options.Retry.MaxRetries = 5;
var blobs = new BlobServiceClient(new Uri("https://account.blob.core.windows.net"), credential, options);
