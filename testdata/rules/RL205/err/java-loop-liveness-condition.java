package com.example.replication;

import java.io.IOException;

// A loop that runs while the service is alive has no attempt limit: the
// condition asks whether to keep looping (a method of this class reading a
// flag, or one named like a liveness check), not how many attempts are left.
public class ReplicationSource {

    private volatile boolean running = true;

    private boolean keepLooping() {
        return running && !Thread.currentThread().isInterrupted();
    }

    public void ship(Endpoint endpoint, Batch batch) throws InterruptedException {
        while (keepLooping()) {
            try {
                endpoint.replicate(batch);
                return;
            } catch (IOException e) {
                Thread.sleep(1000);
            }
        }
    }

    public void connect(Source source, Peer peer) throws InterruptedException {
        while (source.isSourceActive()) {
            try {
                peer.connect();
                break;
            } catch (IOException e) {
                Thread.sleep(1000);
            }
        }
    }
}
