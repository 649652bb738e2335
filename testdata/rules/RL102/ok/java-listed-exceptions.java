package com.example.sync;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;

public class SyncJob {

    private final Retry retry = Retry.of("sync", RetryConfig.custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(200, 2.0))
            .retryExceptions(IOException.class, TimeoutException.class)
            .build());

    public Result push(Api api, Batch batch) throws InterruptedException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return api.push(batch);
            } catch (SocketTimeoutException e) {
                Thread.sleep(1000L << attempt);
            }
        }
        return Result.FAILED;
    }
}
