package com.example.quotes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

// No `try`: the loop's own condition tests the response's status, and a 5xx
// sends the request again at once, three more times.
public class QuoteClient {

    private final HttpClient client = HttpClient.newHttpClient();

    public String quote(String symbol) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://quotes/" + symbol)).build();
        HttpResponse<String> resp;
        int attempt = 0;
        do {
            resp = client.send(req, HttpResponse.BodyHandlers.ofString());
        } while (resp.statusCode() >= 500 && attempt++ < 3);
        return resp.body();
    }
}
