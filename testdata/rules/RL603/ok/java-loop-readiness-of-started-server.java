package com.example.coordination;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

// The method starts its own ZooKeeper server, then connects to it until it
// answers: a readiness poll of a daemon this code started, not a retry of
// a shared service under load (apache/giraph ZooKeeperManager, sixteenth
// pass).
public class EmbeddedCoordinator {

    private final ServerRunner zkRunner;
    private final String myHostname;
    private int basePort;

    public EmbeddedCoordinator(ServerRunner zkRunner, String myHostname, int basePort) {
        this.zkRunner = zkRunner;
        this.myHostname = myHostname;
        this.basePort = basePort;
    }

    public void online(int maxConnectAttempts, long pollMsecs) throws IOException {
        int port = zkRunner.start(basePort);
        if (port > 0) {
            basePort = port;
        }
        int connectAttempts = 0;
        while (connectAttempts < maxConnectAttempts) {
            try {
                Socket probe = new Socket();
                probe.connect(new InetSocketAddress(myHostname, basePort), 5000);
                probe.close();
                break;
            } catch (SocketTimeoutException e) {
                System.err.println("not up yet: " + e);
            } catch (ConnectException e) {
                System.err.println("refused: " + e);
            }
            ++connectAttempts;
            try {
                Thread.sleep(pollMsecs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (connectAttempts == maxConnectAttempts) {
            throw new IllegalStateException("the embedded server did not come up");
        }
    }
}
