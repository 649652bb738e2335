package com.example.hdfs;

import java.io.IOException;

// Success nested in an `if` on the call's result: the file is complete when
// `complete(..)` says so, and both a `false` and an `IOException` go round
// again, for ever.
public class FileCloser {

    public void completeFile(NameNode namenode, String src, long fileId) throws InterruptedException {
        while (true) {
            try {
                if (namenode.complete(src, fileId)) {
                    return;
                }
            } catch (IOException e) {
                LOG.warn("complete " + src + " failed, retrying", e);
            }
            Thread.sleep(400);
        }
    }
}
