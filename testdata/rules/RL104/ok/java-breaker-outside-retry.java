package com.example.http;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.util.concurrent.Callable;

// The breaker wraps the retry: it sees one outcome per logical call and
// an open breaker fails the call before any attempt.
public class Client {

    private final CircuitBreaker breaker = CircuitBreaker.ofDefaults("backend");
    private final Retry retry = Retry.of("backend", RetryConfig.custom().maxAttempts(3).build());

    public String send(Callable<String> request) throws Exception {
        return breaker.executeCallable(retry.decorateCallable(request));
    }
}
