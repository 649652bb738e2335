package com.example.broker;

// The attempt is the loop's condition, and a count or a deadline ends the
// loop; or the call reads a state (a wait, not a retry).
public class BrokerLink {

    private final Client client;
    private final Server server;

    public BrokerLink(Client client, Server server) {
        this.client = client;
        this.server = server;
    }

    public void connect() throws InterruptedException {
        int failures = 0;
        while (!client.connect()) {
            if (++failures >= 5) {
                throw new IllegalStateException("broker unreachable, giving up after retries");
            }
            Thread.sleep(1000L * failures);
        }
    }

    public void connectUntil(long deadline) throws InterruptedException {
        while (!client.connect()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no broker before the deadline, not retrying");
            }
            Thread.sleep(500);
        }
    }

    public void awaitStart() throws InterruptedException {
        while (!server.isRunning()) {
            log("server not running yet, checking again");
            Thread.sleep(200);
        }
    }

    private void log(String msg) {
    }
}
