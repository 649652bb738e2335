package com.example.stall;

import java.io.IOException;

public class RetryLoopMaxAttempts {
    public byte[] download(Api api, String id) throws InterruptedException {
        for (int attempt = 0; attempt < 2147483646; attempt++) {
            try {
                return api.report(id);
            } catch (IOException e) {
                Thread.sleep(1L << Math.min(attempt, 62));
            }
        }
        return null;
    }
}
