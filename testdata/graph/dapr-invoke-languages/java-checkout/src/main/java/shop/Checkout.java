package shop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Checkout {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\":1}"))
                .uri(URI.create(System.getenv("DAPR_HTTP_ENDPOINT") + "/orders"))
                .header("dapr-app-id", "orders")
                .build();
        CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
