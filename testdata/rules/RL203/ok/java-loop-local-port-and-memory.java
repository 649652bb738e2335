package com.example.local;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;

// Work inside this process or on its own disk: binding a server socket,
// moving to the next port every third try (alibaba/Sentinel
// SimpleHttpCommandCenter.getServerSocketFromBasePort); a delete that
// Windows refuses for a moment (apache/paimon FileIOUtils.guardIfWindows,
// `AccessDeniedException`); compiling after running out of memory
// (apache/paimon CodeGenUtils, `OutOfMemoryError`).
class LocalOnly {
    static ServerSocket serverSocket(int basePort) throws InterruptedException {
        int tryCount = 0;
        while (true) {
            try {
                ServerSocket server = new ServerSocket(basePort + tryCount / 3, 100);
                server.setReuseAddress(true);
                return server;
            } catch (IOException e) {
                tryCount++;
                Thread.sleep(30);
            }
        }
    }

    static void delete(File file) throws IOException, InterruptedException {
        for (int attempt = 1; attempt <= 10; attempt++) {
            try {
                Files2.deleteFile(file);
                break;
            } catch (AccessDeniedException e) {
                // a virus scanner or an indexer holds it
            }
            Thread.sleep(1);
        }
    }

    static Object compile(Generated generated) throws InterruptedException {
        while (true) {
            try {
                return generated.compile();
            } catch (OutOfMemoryError error) {
                System.gc();
                Thread.sleep(5_000);
            }
        }
    }
}
