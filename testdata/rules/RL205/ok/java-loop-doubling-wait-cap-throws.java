package com.example.spool;

import com.example.store.BatchReader;
import java.io.EOFException;
import java.io.IOException;

// The batch may not be fully written yet: the read is tried again after a
// wait that doubles each time (`wait = Math.max(1, wait * 2)`), and the
// catch throws once the wait reaches a minute. A value growing by a factor
// and tested against a limit that leaves ends the loop after a few passes
// (here 17): bounded, the count not written as a number.
class SpooledBatch {
    private final BatchReader reader;

    SpooledBatch(BatchReader reader) {
        this.reader = reader;
    }

    byte[] load(long offset) throws IOException, InterruptedException {
        byte[] body = null;
        boolean tryAgain = true;
        int wait = 0;
        while (tryAgain) {
            Thread.sleep(wait);
            try {
                body = reader.readAt(offset);
                tryAgain = false;
            } catch (EOFException e) {
                wait = Math.max(1, wait * 2);
                if (wait < 60000) {
                    continue;
                } else {
                    throw e;
                }
            }
        }
        return body;
    }
}
