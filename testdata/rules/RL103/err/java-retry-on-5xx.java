package com.example.http;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

// Every request this client sends, POST included, is retried on any 5xx.
public class ResilientHttpClient {

    private final HttpClient client = HttpClient.newHttpClient();
    private final Retry retry = Retry.of("http", RetryConfig.<HttpResponse<String>>custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(100, 2.0))
            .retryExceptions(IOException.class)
            .retryOnResult(response -> response.statusCode() >= 500)
            .build());

    public HttpResponse<String> send(HttpRequest request) {
        return retry.executeSupplier(() -> sendOnce(request));
    }

    private HttpResponse<String> sendOnce(HttpRequest request) {
        return null;
    }
}
