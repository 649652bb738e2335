package com.example.billing;

import com.github.rholder.retry.Retryer;
import com.github.rholder.retry.RetryerBuilder;
import com.github.rholder.retry.StopStrategies;
import com.github.rholder.retry.WaitStrategies;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

public class LedgerClient {

    // 200ms, 400ms, 800ms ... to every client at the same moments.
    private final Retryer<Void> retryer = RetryerBuilder.<Void>newBuilder()
            .retryIfExceptionOfType(SocketTimeoutException.class)
            .withStopStrategy(StopStrategies.stopAfterAttempt(5))
            .withWaitStrategy(WaitStrategies.exponentialWait(100, 10, TimeUnit.SECONDS))
            .build();
}
