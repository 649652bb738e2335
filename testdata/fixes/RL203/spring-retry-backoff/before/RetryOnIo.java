package com.example.retry;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

// Every method annotated @RetryOnIo backs off in lockstep: 500ms, 1s, 2s.
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Retryable(retryFor = IOException.class, maxAttempts = 4,
        backoff = @Backoff(delay = 500, multiplier = 2))
public @interface RetryOnIo {}
