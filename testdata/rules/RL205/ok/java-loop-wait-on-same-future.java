package com.example.waits;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

// Waits, with a timeout, on something made before the loop: each pass
// waits on the same result or state again and sends nothing again, even
// where every exception goes round: not a retry.
class SameWait {
    interface Service {
        boolean awaitStopped(long amount, TimeUnit unit) throws Exception;
    }

    volatile boolean wanted = true;

    void stop(Service service) {
        boolean stopped = false;
        while (!stopped) {
            try {
                stopped = service.awaitStopped(1, TimeUnit.SECONDS);
            } catch (final Exception e) {
                System.err.println("failed to stop " + e);
            }
        }
    }

    void startAll(CompletableFuture<Void> allStarted) {
        while (wanted) {
            try {
                allStarted.get(1, TimeUnit.SECONDS);
                return;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (final TimeoutException ignored) {
                // not yet
            } catch (final Exception e) {
                System.err.println("still waiting " + e);
            }
        }
    }
}
