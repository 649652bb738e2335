package com.example.reports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

public class ReportUploader {

    // A fresh temporary file name per attempt is fine: it is not a key
    // the server deduplicates on.
    public void upload(Storage storage, byte[] report) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                Path tmp = Files.createTempFile("report-" + UUID.randomUUID(), ".pdf");
                storage.put(tmp, report);
                return;
            } catch (IOException e) {
                Thread.sleep(500 + (long) (Math.random() * 500));
            }
        }
    }
}
