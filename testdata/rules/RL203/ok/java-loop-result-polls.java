package com.example.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

// Loops that are not retries of one call, each waiting a fixed time.
public class ClusterWatcher {

    // Re-reading a state until it is reached is a poll.
    public void awaitReady(Cluster cluster) throws InterruptedException {
        for (int attempt = 0; attempt < 30; attempt++) {
            State s = cluster.getState();
            if (s == State.READY) {
                return;
            }
            Thread.sleep(1000);
        }
    }

    // Trying the next port each pass walks ports.
    public ServerSocket bind(Binder binder, int base) throws InterruptedException {
        for (int attempt = 0; attempt < 10; attempt++) {
            ServerSocket s = binder.bind(base + attempt);
            if (s != null) {
                return s;
            }
            Thread.sleep(100);
        }
        return null;
    }

    private void log(String msg, Exception e) {
    }

    // An optimistic update: the changes are applied to what was read and
    // written only if nothing changed since; on a conflict the state is
    // read again and the changes applied to it. Each pass writes something
    // else, so it is not the same call tried again.
    public void mutate(Store store, String key, Change change) throws InterruptedException {
        Versioned props = store.read(key);
        for (int attempts = 3; attempts > 0; --attempts) {
            Versioned updates = change.apply(props);
            if (store.writeIfVersion(key, updates.bytes(), updates.version())) {
                return;
            }
            Thread.sleep(20);
            props = store.read(key);
        }
        throw new IllegalStateException("conflict on " + key);
    }
}
