package com.example.locks;

import java.util.concurrent.Callable;

// The time spent is kept in a local and compared with a cap that throws:
// the loop is bounded by the clock, not unbounded.
public class LeaseLock {

    private static final long MAX_RETRY_MILLIS = 30_000;

    <T> T retry(Callable<T> op) throws Exception {
        long start = System.currentTimeMillis();
        int backoff = 1;
        while (true) {
            try {
                return op.call();
            } catch (Exception e) {
                long spent = System.currentTimeMillis() - start;
                if (spent > MAX_RETRY_MILLIS) {
                    throw e;
                }
                Thread.sleep((long) (backoff * Math.random()));
                backoff *= 2;
            }
        }
    }
}
