package com.example.lock;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

public class LockSupportOps {

    private static final int RETRY_COUNT = 4;
    private long retryDelay = 500;

    // The wait is in a method of the same class.
    public Object retryOperation(Operation operation) throws IOException {
        IOException exception = null;
        for (int i = 0; i < RETRY_COUNT; i++) {
            try {
                return operation.execute();
            } catch (IOException e) {
                exception = e;
                retryDelay(i);
            }
        }
        throw exception;
    }

    private void retryDelay(int attempt) {
        if (attempt > 0) {
            pauseFor(attempt * retryDelay);
        }
    }

    private void pauseFor(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // Failing over to another node needs no wait.
    public Block readBlock(Client client, Located located) throws IOException {
        Set<Node> excluded = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Node node = located.choose(excluded);
            try {
                return client.read(node);
            } catch (IOException e) {
                excluded.add(node);
            }
        }
        throw new IOException("no node left");
    }

    public Server bind(Factory factory) throws IOException {
        int port = 8000;
        for (int i = 0; i < 3; i++) {
            try {
                return factory.bind(port);
            } catch (IOException e) {
                port++;
            }
        }
        throw new IOException("no port");
    }
}
