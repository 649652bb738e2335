using System.Net.Sockets;

// Each round tries every host once; when all fail it waits a fixed second
// and starts again. The `return` inside the `foreach` leaves the retry
// loop on success, so the loop is a retry (the `foreach` is failover
// inside it), and its wait has no jitter.
public class Connector
{
    public async Task<TcpClient> ConnectAsync(string[] hosts)
    {
        var attempt = 0;
        while (attempt < 3)
        {
            foreach (var host in hosts)
            {
                try
                {
                    var client = new TcpClient();
                    await client.ConnectAsync(host, 5672);
                    return client;
                }
                catch (SocketException)
                {
                }
            }
            attempt++;
            await Task.Delay(1000);
        }
        throw new InvalidOperationException("no host answered");
    }
}
