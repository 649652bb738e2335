package com.example.payments;

import com.github.rholder.retry.Retryer;
import com.github.rholder.retry.RetryerBuilder;
import com.github.rholder.retry.StopStrategies;
import com.github.rholder.retry.WaitStrategies;
import java.net.SocketTimeoutException;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

// The key is minted once, before the retry.
public class PaymentClient {

    private final Retryer<Receipt> retryer = RetryerBuilder.<Receipt>newBuilder()
            .retryIfExceptionOfType(SocketTimeoutException.class)
            .withStopStrategy(StopStrategies.stopAfterAttempt(3))
            .withWaitStrategy(WaitStrategies.randomWait(1, TimeUnit.SECONDS))
            .build();

    public Receipt charge(Api api, Charge charge) throws Exception {
        String idempotencyKey = UUID.randomUUID().toString();
        return retryer.call(() -> api.charge(charge, idempotencyKey));
    }
}
