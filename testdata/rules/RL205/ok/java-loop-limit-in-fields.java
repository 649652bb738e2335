package com.example.transport;

import java.io.IOException;

// A send loop of a failover transport: `while (!disposed)` alone would be
// unbounded, but each pass first waits for a reconnection that gives up
// once the reconnect attempts kept in a field run out (`willReconnect()`,
// through `reconnectAttemptLimit()`), and the loop then leaves with the
// error. The limit is configured (a setter), so the count is not known
// here, but the loop has one.
public class FailoverTransport {

    private static final int INFINITE = -1;
    private final Object reconnectMutex = new Object();
    private volatile boolean disposed;
    private boolean firstConnection = true;
    private int maxReconnectAttempts = INFINITE;
    private Transport connected;

    public void setMaxReconnectAttempts(int maxReconnectAttempts) {
        this.maxReconnectAttempts = maxReconnectAttempts;
    }

    public void oneway(Object command) throws IOException, InterruptedException {
        Exception error = null;
        synchronized (reconnectMutex) {
            for (int i = 0; !disposed; i++) {
                try {
                    Transport transport = connected;
                    while (transport == null && !disposed && willReconnect()) {
                        reconnectMutex.wait(100);
                        transport = connected;
                    }
                    if (transport == null) {
                        error = new IOException("reconnect attempts exceeded");
                        break;
                    }
                    transport.oneway(command);
                    return;
                } catch (IOException e) {
                    handleTransportFailure(e);
                }
            }
        }
        if (error != null) {
            throw new IOException(error);
        }
    }

    private boolean willReconnect() {
        return firstConnection || 0 != reconnectAttemptLimit();
    }

    private int reconnectAttemptLimit() {
        return this.maxReconnectAttempts;
    }

    private void handleTransportFailure(IOException e) {
        connected = null;
    }
}
