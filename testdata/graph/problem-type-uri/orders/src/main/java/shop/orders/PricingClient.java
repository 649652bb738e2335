package shop.orders;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

class PricingClient {
    private static final URI PRICES = URI.create("http://pricing:8080/prices");
    private final HttpClient client = HttpClient.newHttpClient();

    String prices() throws Exception {
        return client.send(HttpRequest.newBuilder(PRICES).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
