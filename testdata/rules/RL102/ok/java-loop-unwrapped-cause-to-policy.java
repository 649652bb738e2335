package com.example.retry;

import java.util.concurrent.ExecutionException;

// The caught exception is unwrapped into a local and handed to the retry
// policy (`!retryPolicy.retry(cause)` throws): the policy sorts the
// failures, so not every error goes round (x-pipe's RetryNTimes,
// sixteenth pass).
public class PolicyRetry<V> {

    private final int n;
    private final RetryPolicy retryPolicy;

    public PolicyRetry(int n, RetryPolicy retryPolicy) {
        this.n = n;
        this.retryPolicy = retryPolicy;
    }

    public V execute(RemoteCommand<V> command) throws Exception {
        for (int i = 0; i <= n; i++) {
            try {
                return command.execute().get();
            } catch (Exception e) {
                Exception cause = unwrap(e);
                if (i == n || !retryPolicy.retry(cause)) {
                    throw cause;
                }
            }
            Thread.sleep(100);
        }
        return null;
    }

    private static Exception unwrap(Exception e) {
        if (e instanceof ExecutionException && e.getCause() instanceof Exception) {
            return (Exception) e.getCause();
        }
        return e;
    }
}
