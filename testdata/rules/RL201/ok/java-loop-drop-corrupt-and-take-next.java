package com.example.log;

import java.io.File;
import java.util.Optional;

// Loading the latest snapshot, dropping a corrupt one and taking the next
// (apache/fluss WriterStateManager.loadFromSnapshot): the catch removes
// the item the try read, so each pass reads another one; a walk down the
// snapshots, not a retry.
public class WriterState {
    private long lastSnapOffset;

    void loadFromSnapshot() throws java.io.IOException {
        while (true) {
            Optional<SnapshotFile> latest = latestSnapshotFile();
            if (latest.isPresent()) {
                SnapshotFile snapshot = latest.get();
                try {
                    readSnapshot(snapshot.file());
                    lastSnapOffset = snapshot.offset;
                    return;
                } catch (CorruptSnapshotException e) {
                    System.err.println("corrupt snapshot " + snapshot.file());
                    removeAndDeleteSnapshot(snapshot.offset);
                }
            } else {
                lastSnapOffset = 0;
                return;
            }
        }
    }
}
