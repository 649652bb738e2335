package com.example.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

// Service loops with a failure path and no success exit: each pass takes
// new work, nothing is tried again, so no wait is owed.
public class Acceptor {

    private volatile boolean running = true;

    // An accept loop that logs a failure and goes on serves each client
    // once: nothing is tried again.
    public void serve(ServerSocket server, Handler handler) {
        while (running) {
            try {
                Socket s = server.accept();
                handler.handle(s);
            } catch (IOException e) {
                log("accept failed", e);
            }
        }
    }

    // A worker counting its failedAttempts: no success leaves, it runs until
    // stopped.
    public void work(Queue queue) {
        int failedAttempts = 0;
        while (running) {
            try {
                queue.process();
            } catch (IOException e) {
                failedAttempts++;
                log("failed " + failedAttempts + " times", e);
            }
        }
    }

    private void log(String msg, Exception e) {
    }
}
