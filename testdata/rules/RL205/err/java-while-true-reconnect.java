package com.example.broker;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

public class BrokerConnector {

    // Tries for ever: nothing ever gives up or tells the caller.
    public Connection connect(Broker broker) throws InterruptedException {
        while (true) {
            try {
                return broker.open();
            } catch (IOException e) {
                Thread.sleep(1000 + ThreadLocalRandom.current().nextInt(500));
            }
        }
    }
}
