package com.example.local;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;

// Waits on the local disk, paced but not a retry of a remote call: a
// directory rename another program may block for a moment (a
// `java.io.File`), and a log file read until the thread writing it has
// created it (only "not found" goes round).
class LocalWaits {
    interface Build {
        void copyLogTo(OutputStream out) throws java.io.IOException;
    }

    boolean moveDirectory(File from, File to) {
        boolean moved = false;
        for (int attempt = 0; attempt < 5; attempt++) {
            if (from.renameTo(to)) {
                moved = true;
                break;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return moved;
    }

    void printLog(Build build, OutputStream out, int retryCount) throws Exception {
        for (int i = 0; i <= retryCount; ) {
            try {
                build.copyLogTo(out);
                break;
            } catch (FileNotFoundException | NoSuchFileException e) {
                if (i == retryCount) {
                    throw e;
                }
                i++;
                Thread.sleep(100);
            }
        }
    }
}
