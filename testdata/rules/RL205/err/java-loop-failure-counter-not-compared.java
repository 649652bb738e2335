package com.example.hdfs;

import java.io.IOException;

// A counter of failures that nothing compares to a limit is no bound: the
// call is tried for ever.
public class Completer {

    public void complete(NameNode nameNode, String file) throws IOException, InterruptedException {
        int failures = 0;
        while (true) {
            try {
                nameNode.complete(file);
                return;
            } catch (IOException e) {
                failures++;
                log("complete failed " + failures + " times", e);
                Thread.sleep(400);
            }
        }
    }

    private void log(String msg, Exception e) {
    }
}
