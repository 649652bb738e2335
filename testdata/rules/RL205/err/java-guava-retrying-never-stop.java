package com.example.inventory;

import com.github.rholder.retry.Retryer;
import com.github.rholder.retry.RetryerBuilder;
import com.github.rholder.retry.WaitStrategies;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

public class StockClient {

    // No stop strategy: guava-retrying never stops.
    private final Retryer<Integer> retryer = RetryerBuilder.<Integer>newBuilder()
            .retryIfExceptionOfType(IOException.class)
            .withWaitStrategy(WaitStrategies.randomExponentialWait(100, 30, TimeUnit.SECONDS))
            .build();

    int stock(String sku) throws Exception {
        return retryer.call(() -> api.stock(sku));
    }
}
