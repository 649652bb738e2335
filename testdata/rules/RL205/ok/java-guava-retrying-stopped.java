package com.example.inventory;

import com.github.rholder.retry.Retryer;
import com.github.rholder.retry.RetryerBuilder;
import com.github.rholder.retry.StopStrategies;
import com.github.rholder.retry.WaitStrategies;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

public class StockClient {

    private final Retryer<Integer> byCount = RetryerBuilder.<Integer>newBuilder()
            .retryIfExceptionOfType(IOException.class)
            .withStopStrategy(StopStrategies.stopAfterAttempt(3))
            .withWaitStrategy(WaitStrategies.randomExponentialWait(100, 30, TimeUnit.SECONDS))
            .build();

    // Any number of attempts, but for 20 seconds at most.
    private final Retryer<Integer> byTime = RetryerBuilder.<Integer>newBuilder()
            .retryIfExceptionOfType(IOException.class)
            .withStopStrategy(StopStrategies.stopAfterDelay(20, TimeUnit.SECONDS))
            .withWaitStrategy(WaitStrategies.randomWait(1, TimeUnit.SECONDS))
            .build();

    // No retryIf..: this retryer retries nothing, so it is no retry policy.
    private final Retryer<Integer> once = RetryerBuilder.<Integer>newBuilder().build();
}
