using Polly;
using Polly.Retry;

// A synchronous policy over synchronous work, once with a blocking wait
// on a task inside the lambda (twice): the exception is thrown inside `Execute`.
public class Mailer
{
    private readonly RetryPolicy _retry = Policy
        .Handle<SmtpException>()
        .WaitAndRetry(3, attempt => TimeSpan.FromSeconds(attempt) + TimeSpan.FromMilliseconds(Random.Shared.Next(0, 250)));

    public void Send(SmtpClient client, MailMessage message) =>
        _retry.Execute(() => client.Send(message));

    public void SendBlocking(SmtpClient client, MailMessage message) =>
        _retry.Execute(() => client.SendMailAsync(message).GetAwaiter().GetResult());

    public bool SendWaiting(SmtpClient client, MailMessage message) =>
        _retry.Execute(() => client.SendMailAsync(message).Wait(TimeSpan.FromSeconds(30)));
}
