package com.acme.reports;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class ReportStore {
    private final HttpClient http = HttpClient.newHttpClient();

    public void save(String report) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://reports/api"))
                .POST(HttpRequest.BodyPublishers.ofString(report))
                .build();
        http.send(request, HttpResponse.BodyHandlers.discarding());
    }
}
