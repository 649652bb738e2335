package com.example.logs;

import com.example.logs.LogBuffer;

// Waits, up to 300 checks, for the flag a reader thread sets when the
// last log line arrived. The tested method of this class only returns a
// field's getter (`return this.buffer.isComplete();`): a state read, not
// an operation tried again, so no attempt count is due.
class LogTail {
    private final LogBuffer buffer;

    LogTail(LogBuffer buffer) {
        this.buffer = buffer;
    }

    void awaitLastLine() throws InterruptedException {
        int retry = 0;
        int maxRetry = 300;
        while (retry++ < maxRetry) {
            if (this.lastLineSeen()) {
                return;
            }
            Thread.sleep(2000);
        }
        System.err.println("gave up waiting for the last log line");
    }

    boolean lastLineSeen() {
        return this.buffer.isComplete();
    }
}
