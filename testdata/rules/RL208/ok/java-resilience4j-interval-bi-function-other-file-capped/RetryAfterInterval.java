package com.example.billing;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.functions.Either;
import java.net.http.HttpResponse;
import java.util.concurrent.ThreadLocalRandom;

public class RetryAfterInterval implements IntervalBiFunction<HttpResponse<String>> {
    private static final long MAX_WAIT_MS = 20_000;

    @Override
    public Long apply(Integer attempt, Either<Throwable, HttpResponse<String>> either) {
        long wait = either.isRight()
                ? Math.min(Long.parseLong(either.get().headers().firstValue("Retry-After").orElse("1")) * 1000, MAX_WAIT_MS)
                : 500L;
        return wait + ThreadLocalRandom.current().nextLong(wait / 2 + 1);
    }
}
