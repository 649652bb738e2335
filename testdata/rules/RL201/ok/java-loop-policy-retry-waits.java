// The retry policy object decides and waits: `retryPolicy.retry(e)` sleeps
// before it answers true (it declares `InterruptedException`, caught
// around the call), so the loop does not go round at once.
package org.example.cloud;

import java.io.IOException;

public final class CloudCalls {
    private static final Logger LOG = LoggerFactory.getLogger(CloudCalls.class);
    private static final int MAX_RETRIES = 5;
    private static final long MAX_DELAY_MS = 10_000;

    private final BlobClient client;

    public CloudCalls(BlobClient client) {
        this.client = client;
    }

    public byte[] read(String key) throws StoreException {
        RetryPolicy retryPolicy = null;
        while (true) {
            try {
                return client.getObject(key);
            } catch (IOException e) {
                if (retryPolicy == null) {
                    retryPolicy = new GrowingRetryPolicy(MAX_RETRIES, MAX_DELAY_MS);
                }
                try {
                    if (!retryPolicy.retry(e)) {
                        throw StoreException.wrap(e);
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw StoreException.wrap(ie);
                }
                LOG.warn("reading {} failed, trying again", key, e);
            }
        }
    }
}
