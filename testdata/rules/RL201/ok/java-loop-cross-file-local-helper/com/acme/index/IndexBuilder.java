package com.acme.index;

import java.io.IOException;

// The retried work is a rebuild of an index on the local disk, done by a
// helper class of another file: nothing remote is retried.
public class IndexBuilder {
    private static final int MAX_RETRIES = 3;
    private final LocalIndexWriter writer = new LocalIndexWriter();

    public void build(String dir) throws IOException {
        int retries = 0;
        while (true) {
            try {
                writer.rebuild(dir);
                return;
            } catch (IOException e) {
                if (++retries > MAX_RETRIES) {
                    throw e;
                }
            }
        }
    }
}
