package com.example.notifications;

import java.io.IOException;
import org.springframework.resilience.annotation.Retryable;

public class NotificationService {

    // maxRetries counts retries: 6 retries are 7 attempts.
    @Retryable(includes = IOException.class, maxRetries = 6, delay = 100, jitter = 50, multiplier = 2)
    public void notify(String user) throws IOException {}
}
