package com.example.raft;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

// Waiting again on the same future after a timeout (apache/ratis
// SegmentedRaftLogWorker.getFromFuture): nothing is sent again, the wait
// for the state machine's write just goes on; only the timeout goes round.
class SyncPolicy {
    private final int syncTimeoutRetry;
    private final long syncTimeout;

    SyncPolicy(int syncTimeoutRetry, long syncTimeout) {
        this.syncTimeoutRetry = syncTimeoutRetry;
        this.syncTimeout = syncTimeout;
    }

    void getFromFuture(CompletableFuture<?> future, Supplier<Object> name) throws IOException {
        TimeoutIOException lastException = null;
        for (int retry = 0; syncTimeoutRetry == -1 || retry <= syncTimeoutRetry; retry++) {
            try {
                IOUtils.getFromFuture(future, name, syncTimeout);
                return;
            } catch (TimeoutIOException e) {
                lastException = e;
            }
        }
        throw lastException;
    }
}
