package com.example.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;

// A file another writer overwrites is read, and only parsing what was read
// goes round (apache/paimon SnapshotManager.tryFromPath, Consumer.fromPath):
// a torn read, a race with the writer; the read's own errors leave. No
// remote call is retried on failure.
public class SnapshotReader {
    public static Snapshot tryFromPath(FileIO fileIO, Path path) {
        int retryNumber = 0;
        Exception exception = null;
        while (retryNumber++ < 10) {
            String content;
            try {
                content = fileIO.readFileUtf8(path);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                return Snapshot.fromJson(content);
            } catch (Exception e) {
                exception = e;
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new RuntimeException(ie);
                }
            }
        }
        throw new IllegalStateException("retry fail after 10 times", exception);
    }
}
