package com.example.ops;

import java.io.IOException;

public class Operator {

    private final Clock time;
    private final long retryTimeoutMs;
    private final long taskTimeoutMs;

    // The clock ends the retries (the cap is in the else branch).
    public <V> V execAndRetry(Operation<V> operation) throws Exception {
        int attempt = 0;
        long deadline = time.milliseconds() + retryTimeoutMs;
        do {
            try {
                attempt++;
                return operation.call();
            } catch (RetriableException e) {
                if (time.milliseconds() < deadline) {
                    backoff(attempt, deadline);
                } else {
                    return null;
                }
            }
        } while (true);
    }

    // The deadline is checked in a method of the class that throws.
    public <R> R retryUntilTimeout(Supplier<R> supplier) {
        long deadlineMs = -1;
        do {
            try {
                return supplier.get();
            } catch (TimeoutException e) {
                deadlineMs = maybeUpdateDeadlineOrThrow(deadlineMs);
            }
        } while (true);
    }

    private long maybeUpdateDeadlineOrThrow(long currentDeadlineMs) {
        long now = time.milliseconds();
        if (currentDeadlineMs == -1) {
            return now + taskTimeoutMs;
        } else if (now >= currentDeadlineMs) {
            throw new TimeoutException("task timed out");
        }
        return currentDeadlineMs;
    }

    private void backoff(int attempt, long deadline) {
        try {
            Thread.sleep(Math.min(100L << attempt, deadline - time.milliseconds()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
