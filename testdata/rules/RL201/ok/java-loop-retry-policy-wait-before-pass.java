package com.example.retry;

import java.util.concurrent.TimeUnit;

// A generic retry template: from the second pass on, the policy object
// waits (`retryPolicy.retryWaitMilli(true)`) before the attempt. A delay
// the policy decides, not none (x-pipe's RetryNTimes, sixteenth pass).
public class RetryTimes<V> {

    private final int n;
    private final RetryPolicy retryPolicy;

    public RetryTimes(int n, RetryPolicy retryPolicy) {
        this.n = n;
        this.retryPolicy = retryPolicy;
    }

    public V execute(RemoteCommand<V> command) throws Exception {
        for (int i = 0; i <= n; i++) {
            if (i >= 1) {
                retryPolicy.retryWaitMilli(true);
            }
            try {
                return command.execute().get(retryPolicy.waitTimeoutMilli(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                if (i == n) {
                    throw e;
                }
            }
            command.reset();
        }
        return null;
    }
}
