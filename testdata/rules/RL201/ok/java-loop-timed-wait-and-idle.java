package com.example.launcher;

import java.util.concurrent.TimeUnit;

// Both loops wait between attempts: `timedWait(..)` waits on a monitor for
// the interval, and the pauser's `idle()` parks the thread.
public class LauncherStatus {
    interface Pauser {
        void idle();
    }

    private final Pauser pauser;
    private final StatusClient client;

    LauncherStatus(Pauser pauser, StatusClient client) {
        this.pauser = pauser;
        this.client = client;
    }

    public String waitOnStatus(long timeout, long interval, TimeUnit unit) {
        long end = System.currentTimeMillis() + unit.toMillis(timeout);
        while (System.currentTimeMillis() < end) {
            try {
                return client.status();
            } catch (Exception retry) {
                timedWait(interval, unit);
            }
        }
        return "not responding";
    }

    public void markActive() {
        boolean done = false;
        int attempts = 0;
        while (!done && attempts++ < 10) {
            try {
                client.setActive();
                done = true;
            } catch (java.io.IOException e) {
                pauser.idle();
            }
        }
    }

    private void timedWait(long interval, TimeUnit unit) {
        try {
            synchronized (this) {
                unit.timedWait(this, interval);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    interface StatusClient {
        String status() throws Exception;

        void setActive() throws java.io.IOException;
    }
}
