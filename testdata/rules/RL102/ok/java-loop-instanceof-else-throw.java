package com.example.storage;

import java.io.IOException;

// The catch leaves on the last attempt and on every exception that is not
// an `IOException` or a `StoreUnreachableException`
// (`else if (!(e instanceof ..)) throw ..`): a predicate.
public class Retrier {

    private final int maxAttempts = 3;

    public <T> T execute(IoSupplier<T> supplier) throws IOException {
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                return supplier.get();
            } catch (Exception e) {
                if (attempt == maxAttempts) {
                    throw new IOException(e);
                } else if (!(e instanceof IOException || e instanceof StoreUnreachableException)) {
                    throw new RuntimeException("unexpected", e);
                }
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        throw new AssertionError();
    }
}
