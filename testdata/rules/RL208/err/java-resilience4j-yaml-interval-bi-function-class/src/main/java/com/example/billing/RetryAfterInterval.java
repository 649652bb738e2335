package com.example.billing;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.functions.Either;
import java.net.http.HttpResponse;

public class RetryAfterInterval implements IntervalBiFunction<HttpResponse<String>> {
    @Override
    public Long apply(Integer attempt, Either<Throwable, HttpResponse<String>> either) {
        if (either.isRight()) {
            return Long.parseLong(either.get().headers().firstValue("Retry-After").orElse("1")) * 1000;
        }
        return 500L;
    }
}
