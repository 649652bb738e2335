package com.example.master;

import java.io.IOException;

// The caught exception is stored, then handed to a method of this class
// that decides whether to go round (apache/celeborn MasterClient
// .sendMessageInner): `shouldRetry = shouldRetry(ref, throwable)` under
// `while (numTries <= maxRetries && shouldRetry)` sorts the failures.
public class MasterClient {
    private final int maxRetries = 3;
    private EndpointRef endpointRef;

    public <T> T sendMessage(Object message) throws Throwable {
        Throwable throwable = null;
        int numTries = 0;
        boolean shouldRetry = true;
        while (numTries <= maxRetries && shouldRetry) {
            try {
                return endpointRef.askSync(message);
            } catch (Throwable e) {
                throwable = e;
                shouldRetry = shouldRetry(endpointRef, throwable);
                if (shouldRetry) {
                    numTries++;
                    Thread.sleep(Math.min(numTries * 100L, 2000L));
                }
            }
        }
        throw throwable;
    }

    private boolean shouldRetry(EndpointRef oldRef, Throwable e) {
        if (e.getCause() instanceof IOException || e instanceof RpcTimeoutException) {
            endpointRef = null;
            return true;
        }
        return false;
    }
}
