using Polly;
using Polly.Retry;

// The policy is kept in a field and run on a `..Async` call that is not
// awaited inside the lambda: the lambda returns the task at once.
public class Mailer
{
    private readonly RetryPolicy _retry = Policy
        .Handle<SmtpException>()
        .Retry(3);

    public Task Send(SmtpClient client, MailMessage message) =>
        _retry.Execute(() => client.SendMailAsync(message));
}
