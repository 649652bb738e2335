package com.example.mail;

import java.io.IOException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

public interface MailClient {

    @Retryable(retryFor = IOException.class, maxAttempts = 5,
            backoff = @Backoff(delay = 500, multiplier = 2, maxDelay = 8000, random = true))
    void send(Mail mail) throws IOException;
}
