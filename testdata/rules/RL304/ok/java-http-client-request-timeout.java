package com.example.billing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

// Each try gives up after 2 s (`.timeout(..)` on the request): three tries
// and their waits take at most 7 s.
public class LedgerExport {
    private final HttpClient client = HttpClient.newHttpClient();

    public String export(String id) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://ledger:8080/export/" + id))
                .timeout(Duration.ofSeconds(2))
                .GET()
                .build();
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
        throw new IllegalStateException("ledger unavailable");
    }
}
