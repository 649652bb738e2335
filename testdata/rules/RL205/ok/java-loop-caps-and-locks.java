package com.example.storage;

import java.io.IOException;
import java.sql.Connection;

// Loops with a cap the reader must find elsewhere than in the condition,
// and loops that wait for a lock.
public class Store {

    // The else branch of `retryCnt < 3 && ..` gives up.
    public void drop(ZkClient zk, String path) {
        int retryCnt = 0;
        while (true) {
            try {
                zk.deleteRecursively(path);
                return;
            } catch (ZkClientException e) {
                if (retryCnt < 3 && e.getCause() instanceof NotEmptyException) {
                    retryCnt++;
                } else {
                    throw new StoreException("failed to drop " + path, e);
                }
            }
        }
    }

    // The retry policy decides, given the attempts so far.
    public <T> T syncCall(Callable<T> proc, RetryPolicy retryPolicy) throws Exception {
        T result = null;
        boolean isDone = false;
        int attempts = 0;
        long start = System.nanoTime();
        while (!isDone) {
            try {
                result = proc.call();
                isDone = true;
            } catch (KeeperException e) {
                ++attempts;
                boolean rethrow = true;
                if (retryPolicy.allowRetry(attempts, elapsedSince(start))) {
                    rethrow = false;
                }
                if (rethrow) {
                    throw e;
                }
                Thread.sleep(retryPolicy.nextRetryWaitTime(attempts));
            }
        }
        return result;
    }

    // A helper of this class throws once its count runs out.
    public Transport connect(Plugin plugin, String host) throws IOException {
        boolean connected = false;
        Transport result = null;
        while (!connected) {
            try {
                result = plugin.connect(host);
                connected = true;
            } catch (TransportException ex) {
                retryNext(ex);
            }
        }
        return result;
    }

    private void retryNext(TransportException ex) {
        if (!canRetry()) {
            throw new RuntimeException(ex);
        }
        try {
            Thread.sleep(waitGrabber.getSleepTimeMs(completedRetries));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        completedRetries++;
    }

    private boolean canRetry() {
        return retryForever || completedRetries < retryTimes;
    }

    // Waiting for the database lock file.
    private void lock(LockFile lockFile) throws IOException {
        while (true) {
            try {
                lockFile.lock();
                break;
            } catch (IOException e) {
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException e1) {
                }
            }
        }
    }

    // Waiting to become the master: another broker holds the lock row.
    public void doStart(DataSource dataSource, String sql) throws Exception {
        while (true) {
            try {
                Connection connection = dataSource.getConnection();
                lockCreateStatement = connection.prepareStatement(sql);
                lockCreateStatement.execute();
                break;
            } catch (Exception e) {
                if (isStopping()) {
                    throw new Exception("asked to shut down", e);
                }
            }
            Thread.sleep(lockAcquireSleepInterval);
        }
    }
}
