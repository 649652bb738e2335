package com.example.pool;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

// Waiting for a pool to terminate: `awaitTermination` itself waits up to
// its timeout, and a `false` means "not yet", not a failure to retry.
public class Pools {

    public static void shutdown(ExecutorService executor) {
        executor.shutdown();
        int retry = 3;
        while (retry > 0) {
            retry--;
            try {
                if (executor.awaitTermination(100, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                executor.shutdownNow();
                Thread.interrupted();
            } catch (Throwable ex) {
                log(ex);
            }
        }
        executor.shutdownNow();
    }

    private static void log(Throwable t) {
    }
}
