package com.example.mail;

import java.io.IOException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

public interface MailClient {

    // delay + maxDelay without a multiplier: a random delay between 0.5 s
    // and 1.5 s that never grows, however long the outage lasts.
    @Retryable(retryFor = IOException.class, maxAttempts = 5, backoff = @Backoff(delay = 500, maxDelay = 1500))
    void send(Mail mail) throws IOException;
}
