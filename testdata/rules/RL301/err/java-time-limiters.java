package com.example.quotes;

import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

public class QuotesClient {

    private final TimeLimiter perAttempt = TimeLimiter.of(Duration.ofSeconds(2));
    private final TimeLimiter overall = TimeLimiter.of(Duration.ofSeconds(5));
    private final Retry retry = Retry.of("quotes", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(500))
            .build());

    // 3 attempts x 2 s + 2 x 500 ms = 7 s, but the outer limiter gives up at 5 s.
    public CompletionStage<Quote> quote(Api api, ScheduledExecutorService scheduler, String symbol) {
        return Decorators.ofCompletionStage(() -> api.quoteAsync(symbol))
                .withTimeLimiter(perAttempt, scheduler)
                .withRetry(retry, scheduler)
                .withTimeLimiter(overall, scheduler)
                .get();
    }
}
