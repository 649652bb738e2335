package com.example.payments;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class LedgerClient {
    private final HttpClient http = HttpClient.newHttpClient();

    // 429 and 503 go round; any other failure status leaves at once.
    String balance(String account) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://ledger:8080/balances/" + account))
                .timeout(Duration.ofSeconds(2))
                .build();
        for (int attempt = 1; attempt <= 4; attempt++) {
            try {
                HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
                int code = resp.statusCode();
                if (code == 429 || code == 503) {
                    Thread.sleep(200L * attempt);
                    continue;
                }
                if (code >= 400) {
                    throw new LedgerException(code);
                }
                return resp.body();
            } catch (IOException e) {
                Thread.sleep(200L * attempt);
            }
        }
        throw new IllegalStateException("ledger unavailable");
    }
}
