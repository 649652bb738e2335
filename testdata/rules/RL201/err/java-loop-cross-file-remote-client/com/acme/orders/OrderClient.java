package com.acme.orders;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class OrderClient {
    private final HttpClient http = HttpClient.newHttpClient();

    public String fetch(String id) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://orders/api/" + id)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
}
