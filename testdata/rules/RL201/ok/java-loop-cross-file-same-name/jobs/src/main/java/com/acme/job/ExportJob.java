package com.acme.job;

import com.acme.util.Exporter;

// Two modules declare `com.acme.util.Exporter`, both writing a local
// file, and nothing in this file shows a remote attempt: not taken.
public class ExportJob {
    private final Exporter exporter = new Exporter();

    public void run(String name) throws Exception {
        int retries = 0;
        while (true) {
            try {
                exporter.export(name);
                return;
            } catch (java.io.IOException e) {
                if (++retries > 3) {
                    throw e;
                }
            }
        }
    }
}
