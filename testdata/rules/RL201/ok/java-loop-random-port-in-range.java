package com.example.rest;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Random;

// Finding a free local port (apache/gravitino RESTUtils.findAvailablePort):
// the loop runs over a port range and each pass binds another port; no
// remote call is retried.
public class Ports {
    public static int findAvailablePort(int portRangeStart, int portRangeEnd) throws IOException {
        Random random = new Random();
        final int maxRetry = 200;
        for (int i = portRangeStart; i <= portRangeEnd && i < portRangeStart + maxRetry; ++i) {
            int candidate = random.nextInt(portRangeEnd - portRangeStart + 1) + portRangeStart;
            try (ServerSocket socket = new ServerSocket(candidate)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IOException("no available port");
    }
}
