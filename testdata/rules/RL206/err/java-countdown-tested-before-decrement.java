package com.example.pulse;

// `retry` is tested before it is counted down: 10 retries after the first
// attempt, 11 attempts.
public class PulseStore {
    private static final int maxRetries = 10;

    public void send(Pool pool, Message message) {
        int retry = maxRetries;
        while (true) {
            try {
                pool.send(message);
                break;
            } catch (ConnectionException e) {
                if (retry <= 0) {
                    throw new RuntimeException(e);
                }
                retry--;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    throw new RuntimeException(ie);
                }
            }
        }
    }
}
