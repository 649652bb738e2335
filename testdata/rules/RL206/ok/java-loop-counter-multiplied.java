package com.example.blobs;

import java.io.IOException;

// The `for` counter is the wait, multiplied each pass: 10, 100, 1000,
// 10000 ms, four attempts (not 9991).
public class SegmentLister {

    Listing list(BlobClient client, String token) throws IOException {
        IOException last = null;
        for (int sleep = 10; sleep <= 10000; sleep *= 10) {
            try {
                return client.listSegment(token);
            } catch (IOException e) {
                last = e;
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        throw last;
    }
}
