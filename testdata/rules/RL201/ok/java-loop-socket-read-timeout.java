package com.example.ipc;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

// A read that goes round only after `SocketTimeoutException`: the socket
// waited its timeout for data, and the loop waits again (pinging the
// server in between); it does not retry a failed call (seen wrong on a
// repository outside the review set, docs/loop-review.md fourth pass).
class PingInputStream extends FilterInputStream {

    PingInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int waiting = 0;
        do {
            try {
                return super.read();
            } catch (SocketTimeoutException e) {
                waiting += soTimeout;
                handleTimeout(e, waiting);
            }
        } while (true);
    }
}
