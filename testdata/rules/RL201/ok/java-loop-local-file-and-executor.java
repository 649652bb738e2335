package com.example.local;

import java.io.File;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

// Local work that goes round on a local failure, not on a failed remote
// call: deleting a directory while files vanish under it (apache/ratis
// RaftServerImpl.groupRemove, `NoSuchFileException`), and resubmitting to
// this process's own thread pool when its queue is full (apache/rocketmq
// ConsumeMessageConcurrentlyService, `RejectedExecutionException`).
class LocalWork {
    static final int NUM_ATTEMPTS = 5;

    void removeDirectory(File root) {
        for (int i = 0; i < NUM_ATTEMPTS; i++) {
            try {
                FileUtils.deleteFully(root);
                break;
            } catch (NoSuchFileException e) {
                System.err.println("some file does not exist " + root);
            } catch (Exception e) {
                System.err.println("failed to remove " + root);
                break;
            }
        }
    }

    boolean resubmit(ExecutorService consumeExecutor, Runnable request, int times) {
        boolean success = false;
        for (int i = 0; i < times; i++) {
            try {
                consumeExecutor.submit(request);
                success = true;
                break;
            } catch (RejectedExecutionException e) {
                // the queue is full: try again
            }
        }
        return success;
    }
}
