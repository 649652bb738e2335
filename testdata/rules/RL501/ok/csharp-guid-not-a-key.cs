// A new temporary blob name per attempt is not a key anything
// deduplicates on.
public class Uploader(BlobContainerClient container)
{
    public async Task UploadAsync(Stream data)
    {
        for (var attempt = 0; attempt < 3; attempt++)
        {
            try
            {
                var name = $"upload-{Guid.NewGuid()}.tmp";
                await container.UploadBlobAsync(name, data);
                return;
            }
            catch (IOException)
            {
                await Task.Delay(Random.Shared.Next(100, 500));
            }
        }
    }
}
