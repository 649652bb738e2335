package com.example.queue;

import java.io.IOException;
import java.net.ServerSocket;

public class Queue {

    // A missing parent is created, then the write is made again: a repair,
    // not a retry of a transient failure.
    public boolean offer(Store store, byte[] data) throws StoreException {
        for (;;) {
            try {
                store.create(dir + "/item-", data);
                return true;
            } catch (NoNodeException e) {
                store.create(dir, new byte[0]);
            }
        }
    }

    // The failed segment is split, then the load is made again.
    public <T> T retryOnOverflow(Action<T> action) throws IOException {
        while (true) {
            try {
                return action.execute();
            } catch (SegmentOverflowException e) {
                Segments.split(e.segment, segments);
            }
        }
    }

    // A port scan: each pass tries another port.
    public int freePort(int first, int last) {
        int candidatePort = first;
        for (;;) {
            ++candidatePort;
            if (candidatePort > last) {
                throw new IllegalStateException("no free port");
            }
            try {
                ServerSocket s = new ServerSocket(candidatePort);
                s.close();
                return candidatePort;
            } catch (IOException e) {
                continue;
            }
        }
    }
}
