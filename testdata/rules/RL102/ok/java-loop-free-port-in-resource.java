package com.example.ports;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.net.InetSocketAddress;

// Asking this host for a free port: the listening socket is opened in the
// try's resource (`try (ServerSocket s = new ServerSocket(0))`), not in its
// block, and the block only reads the port it was given. Binding a
// listening socket reaches no other host, so a failure going round is no
// retry of a remote call (apache/bookkeeper PortManager.nextFreePort).
class FreePorts {
    static synchronized int nextFreePort() {
        int failures = 0;
        while (true) {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (Exception e) {
                failures++;
                if (failures > 100) {
                    throw new RuntimeException("no free port", e);
                }
            }
        }
    }

    static int nextFreeChannelPort() throws IOException {
        for (int tries = 0; ; tries++) {
            try (ServerSocketChannel channel = ServerSocketChannel.open()) {
                channel.bind(new InetSocketAddress(0));
                return channel.socket().getLocalPort();
            } catch (IOException e) {
                if (tries >= 50) {
                    throw e;
                }
            }
        }
    }
}
