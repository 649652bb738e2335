package com.example.accounts;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import org.springframework.web.client.HttpClientErrorException;

public class AccountsClient {

    private final Retry retry = Retry.of("accounts", RetryConfig.custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(200, 2.0))
            .retryExceptions(IOException.class, HttpClientErrorException.BadRequest.class)
            .build());
}
