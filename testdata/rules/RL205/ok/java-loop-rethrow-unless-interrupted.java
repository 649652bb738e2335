// A blob store call run again only when it was cut short by an interrupt of
// this thread: every other failure is thrown at once. The catch takes
// `Throwable`, but what goes round is the interruption (restored after the
// call), not a failed request.
package org.example.store;

public final class UninterruptibleReads {
    private static final Logger LOG = LoggerFactory.getLogger(UninterruptibleReads.class);

    private final BlobClient client;

    public UninterruptibleReads(BlobClient client) {
        this.client = client;
    }

    public byte[] readUninterruptibly(String key) throws StoreException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return client.getObject(key);
                } catch (Throwable t) {
                    boolean nowInterrupted = Thread.interrupted();
                    if (Causes.isInterruption(t) || nowInterrupted) {
                        interrupted = true;
                        LOG.debug("read of {} interrupted, reading again", key, t);
                    } else {
                        throw StoreException.wrap(t);
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public void writeUninterruptibly(String key, byte[] data) throws StoreException {
        while (true) {
            try {
                client.putObject(key, data);
                return;
            } catch (Exception e) {
                if (!(e instanceof InterruptedException) && !Thread.currentThread().isInterrupted()) {
                    throw StoreException.wrap(e);
                }
                Thread.interrupted();
                LOG.debug("write of {} interrupted, writing again", key);
            }
        }
    }
}
