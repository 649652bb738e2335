package com.acme.job;

import com.acme.util.Exporter;

// Two modules declare `com.acme.util.Exporter`: which one runs is not
// known, so the call may leave and the retry stays.
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
