package com.example.reports;

import java.io.IOException;
import java.util.Random;

public class ReportClient {

    private final Random random = new Random();

    public byte[] download(Api api, String id) throws InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return api.report(id);
            } catch (IOException e) {
                Thread.sleep(500 + random.nextInt(500));
            }
        }
        return null;
    }
}
