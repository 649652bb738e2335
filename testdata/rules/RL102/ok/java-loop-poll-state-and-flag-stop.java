package com.example.polls;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URL;

// Two loops that do not retry every error. A poll of a job's state read
// through the last answer (`!info.getStatus().isFinished()`): the loop ends
// on the state, not when the query works, and it tolerates thirty failed
// queries in a row. And a client whose catch-all stops the retries by
// setting the flag the loop tests (`stopRetry = true`): only a refused
// connection goes round.
class PollAndStop {
    interface Status {
        boolean isFinished();
    }

    interface Info {
        Status getStatus();
    }

    interface Jobs {
        Info query(String id) throws Exception;
    }

    static final int MAX_RETRY = 30;

    Info waitFinished(Jobs jobs, String id) throws Exception {
        int retryCnt = 0;
        Info info = jobs.query(id);
        while (!info.getStatus().isFinished()) {
            Thread.sleep(2000);
            try {
                info = jobs.query(id);
                retryCnt = 0;
            } catch (Exception e) {
                retryCnt++;
                if (retryCnt >= MAX_RETRY) {
                    throw new IOException("no status for a minute", e);
                }
            }
        }
        return info;
    }

    private final int retryCount = 3;

    Object send(URL url) throws IOException {
        int numTries = 0;
        boolean stopRetry = false;
        Exception last = null;
        while (numTries < retryCount && !stopRetry) {
            try {
                return open(url);
            } catch (ConnectException e) {
                pause(numTries++);
                last = e;
            } catch (Exception e) {
                stopRetry = true;
                last = e;
                numTries++;
            }
        }
        throw new IOException("cannot reach " + url, last);
    }

    private Object open(URL url) throws IOException {
        return url.openConnection().getInputStream();
    }

    private void pause(int attempt) {
        try {
            Thread.sleep(100L << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
