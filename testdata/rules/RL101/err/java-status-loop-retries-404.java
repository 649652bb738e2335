package com.example.payments;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class LedgerClient {
    private final HttpClient http = HttpClient.newHttpClient();

    // Leaves only on 200: any other status is thrown inside the `try` and
    // caught below, so a 404 for an unknown account goes round like a
    // timeout.
    String balance(String account) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://ledger:8080/balances/" + account))
                .timeout(Duration.ofSeconds(2))
                .build();
        for (int attempt = 1; attempt <= 4; attempt++) {
            try {
                HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
                if (resp.statusCode() == 200) {
                    return resp.body();
                }
                throw new IOException("ledger answered " + resp.statusCode());
            } catch (IOException e) {
                Thread.sleep(200L * attempt);
            }
        }
        throw new IllegalStateException("ledger unavailable");
    }
}
