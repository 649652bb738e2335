package com.example.billing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

// The invoice export tries three times, but each try waits for the
// ledger's answer for ever: the request has no `.timeout(..)`, so a ledger
// that accepts the connection and never answers holds the export (and
// its caller) for good, and the retries never get to run.
public class LedgerExport {
    private final HttpClient client = HttpClient.newHttpClient();

    public String export(String id) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://ledger:8080/export/" + id)).GET().build();
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
