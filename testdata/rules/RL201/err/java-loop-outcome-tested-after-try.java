package com.example.journal;

import java.io.IOException;

// Success leaves after the `try`, under a test of what the try left behind.
public class JournalWriter {

    // The caught exception is kept and tested after the try: `null` means
    // the write went through. The write is tried again at once.
    public void append(RemoteJournal journal, byte[] entry) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            IOException err = null;
            try {
                journal.write(entry);
            } catch (IOException e) {
                err = e;
            }
            if (err == null) {
                return;
            }
            last = err;
        }
        throw last;
    }

    // A flag set at the end of the try block, tested after it.
    public void sync(RemoteJournal journal) throws IOException {
        int attempts = 0;
        while (true) {
            boolean synced = false;
            try {
                journal.sync();
                synced = true;
            } catch (IOException e) {
                report(e);
            }
            if (synced) {
                break;
            }
            if (++attempts >= 3) {
                throw new IOException("sync failed");
            }
        }
    }

    private void report(Exception e) {
    }
}
