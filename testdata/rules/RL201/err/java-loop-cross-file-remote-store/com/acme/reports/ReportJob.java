package com.acme.reports;

// Nothing in this file shows a remote attempt, but the project type the
// loop calls does, read in its own file (`ReportStore.save` sends an HTTP
// request): the retry stays.
public class ReportJob {
    private final ReportStore store = new ReportStore();

    public void save(String report) throws Exception {
        int attempts = 0;
        while (true) {
            try {
                store.save(report);
                return;
            } catch (java.io.IOException e) {
                if (++attempts >= 3) {
                    throw e;
                }
            }
        }
    }
}
