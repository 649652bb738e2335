package com.example.blocks;

import java.io.IOException;

// A loop whose catch asks a retry decision (`shouldRetryFailedRead(..)`,
// or a helper whose `else` throws once `shouldRetryRead(.., retries++)`
// says no) is bounded by that decision, not unbounded (seen wrong on a
// repository outside the review set, docs/loop-review.md fourth pass).
public class BlockReader {

    private final RetryPolicy retryPolicy;
    private int retries = 0;

    public int read(ByteBuffer buf) throws IOException {
        while (true) {
            long pos = getPos();
            try {
                return source.read(buf);
            } catch (BadLocationException e) {
                LOG.debug("read failed", e);
                if (shouldRetryFailedRead()) {
                    seek(pos);
                } else {
                    throw e;
                }
            }
        }
    }

    private boolean dataAvailable(int length) throws IOException {
        while (true) {
            try {
                initialize();
                retries = 0;
                return reader.read(length) != null;
            } catch (IOException ex) {
                handleExceptions(ex);
            }
        }
    }

    private void handleExceptions(IOException cause) throws IOException {
        if (shouldRetryRead(cause, retryPolicy, retries++)) {
            releaseClient();
            LOG.warn("reading again after {}", cause.getMessage());
        } else {
            throw cause;
        }
    }
}
