package com.example.hdfs;

import java.io.IOException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

// The catch takes `IllegalArgumentException`, but only one with an
// `UnknownHostException` cause goes round; any other is thrown. What is
// retried is the unknown host, not the client error.
public class VolumeWaiter {

    public void waitForVolumes(Volumes volumes) throws IOException, InterruptedException {
        long sleep = 1000;
        int unknownHostTries = 3;
        while (true) {
            try {
                if (volumes.isReady()) {
                    break;
                }
            } catch (IOException ex) {
                log("unable to connect", ex);
            } catch (IllegalArgumentException e) {
                if (e.getCause() instanceof UnknownHostException) {
                    if (unknownHostTries > 0) {
                        log("will retry", e.getCause());
                    } else {
                        throw e;
                    }
                    unknownHostTries--;
                } else {
                    throw e;
                }
            }
            TimeUnit.MILLISECONDS.sleep(sleep);
            sleep = Math.min(60_000, sleep * 2);
        }
    }

    // The same test written as a guard that throws first.
    public Handle open(Store store) throws InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return store.open();
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof IOException)) {
                    throw e;
                }
                log("open failed", e);
            }
            Thread.sleep(100L * (attempt + 1));
        }
        throw new IllegalStateException("store did not open");
    }

    private void log(String msg, Throwable t) {
    }
}
