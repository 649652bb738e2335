package com.example.notifications;

import java.io.IOException;
import org.springframework.retry.support.RetryTemplate;

public class NotificationConfig {

    RetryTemplate retryTemplate() {
        return RetryTemplate.builder()
                .maxAttempts(3)
                .exponentialBackoff(100, 2, 2000, true)
                .retryOn(IOException.class)
                .build();
    }
}
