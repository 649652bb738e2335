package com.example.reports;

import java.io.IOException;

// Limits kept in fields that are set once: a `final` field assigned in the
// constructor, and a field initialised with a constant and never assigned
// again. Each bounds its loop with the value it holds.
public class ReportClient {

    private final int maxAttempts;
    private int fetchAttempts = 8;

    public ReportClient() {
        this.maxAttempts = 10;
    }

    public byte[] download(Api api, String id) throws InterruptedException {
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            try {
                return api.report(id);
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
        return null;
    }

    public byte[] fetch(Api api, String id) throws InterruptedException {
        for (int attempt = 0; attempt < this.fetchAttempts; attempt++) {
            try {
                return api.report(id);
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
        return null;
    }
}
