package com.example.billing;

import com.github.rholder.retry.Retryer;
import com.github.rholder.retry.RetryerBuilder;
import com.github.rholder.retry.StopStrategies;
import com.github.rholder.retry.WaitStrategies;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

public class LedgerClient {

    // A uniform wait below a bound that doubles.
    private final Retryer<Void> retryer = RetryerBuilder.<Void>newBuilder()
            .retryIfExceptionOfType(SocketTimeoutException.class)
            .withStopStrategy(StopStrategies.stopAfterAttempt(5))
            .withWaitStrategy(WaitStrategies.randomExponentialWait(100, 10, TimeUnit.SECONDS))
            .build();
}
