package com.example.payments.retry;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.SocketTimeoutException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

// The team's retry, declared once: Spring Retry finds @Retryable on the
// annotations of a method.
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Retryable(retryFor = SocketTimeoutException.class, maxAttempts = 3,
        backoff = @Backoff(delay = 200, multiplier = 2, random = true))
public @interface RetryOnTimeout {}
