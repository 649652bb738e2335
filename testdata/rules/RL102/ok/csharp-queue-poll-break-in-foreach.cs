using Azure.Storage.Queues;

// A queue consumer: it polls, waits when the queue is empty, and sends
// each message once; a failed send is logged and the message deleted,
// not retried. The `break` leaves the `foreach` over the messages, not
// the polling loop, so the loop does not "leave on success".
public class MailQueueService
{
    private QueueClient _queue;
    private IMailService _mail;
    private ILogger _logger;

    private async Task RunAsync(CancellationToken cancellationToken)
    {
        QueueMessage[] messages;
        while (!cancellationToken.IsCancellationRequested)
        {
            if (!(messages = await ReceiveAsync()).Any())
            {
                await Task.Delay(TimeSpan.FromSeconds(15));
            }

            foreach (var message in messages)
            {
                try
                {
                    await _mail.SendAsync(message.Body.ToString());
                }
                catch (Exception e)
                {
                    _logger.LogError(e, "failed to send mail");
                }

                await _queue.DeleteMessageAsync(message.MessageId, message.PopReceipt);

                if (cancellationToken.IsCancellationRequested)
                {
                    break;
                }
            }
        }
    }
}
