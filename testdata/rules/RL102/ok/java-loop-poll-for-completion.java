package com.example.schema;

import com.example.schema.PendingChange;
import java.util.concurrent.TimeoutException;

// Waits for a schema change to reach every server: the flag the loop
// condition negates is taken from a call that checks a state
// (`done = change.checkForCompletion()`), not from an operation that
// worked. Errors of the check after the first pass are tolerated; the
// loop polls, it does not retry an operation.
class ChangeWaiter {
    void awaitChange(PendingChange change, int maxRetries, long pauseMs)
            throws InterruptedException, TimeoutException {
        boolean done = false;
        int checks = 0;
        do {
            try {
                done = change.checkForCompletion();
            } catch (Exception e) {
                if (checks == 0) {
                    TimeoutException t = new TimeoutException("change failed");
                    t.initCause(e);
                    throw t;
                }
            }
            checks++;
            if (checks < maxRetries && !done) {
                Thread.sleep(pauseMs);
            }
        } while (checks < maxRetries && !done);
        if (!done) {
            throw new TimeoutException("change not complete after " + checks + " checks");
        }
    }
}
