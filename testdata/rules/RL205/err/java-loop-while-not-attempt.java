package com.example.broker;

// The attempt is the loop's condition and nothing else ends the loop: the
// Java form of Rust's `while let Err(e) = op() { sleep }`.
public class BrokerLink {

    private final Client client;

    public BrokerLink(Client client) {
        this.client = client;
    }

    public void connect() throws InterruptedException {
        while (!client.connect()) {
            log("connect failed, retrying in 1s");
            Thread.sleep(1000);
        }
    }

    private void log(String msg) {
    }
}
