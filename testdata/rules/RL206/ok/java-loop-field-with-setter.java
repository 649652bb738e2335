package com.example.reports;

import java.io.IOException;

// A limit kept in a field that a setter changes has no single value in the
// file: the initializer (10) is only what holds until it is configured, as
// with a field assigned a parameter in the constructor.
public class ReportClient {

    private int maxAttempts = 10;
    private final int uploadAttempts;

    public ReportClient(int uploadAttempts) {
        this.uploadAttempts = uploadAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
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

    public void upload(Api api, byte[] body) throws InterruptedException {
        for (int attempt = 0; attempt < uploadAttempts; attempt++) {
            try {
                api.upload(body);
                return;
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
    }
}
