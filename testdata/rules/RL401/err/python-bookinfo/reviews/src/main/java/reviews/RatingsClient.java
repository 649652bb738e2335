package reviews;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

// The reviews service (Java): it tries `ratings` three times, 1 s apart.
public class RatingsClient {
    private final HttpClient client = HttpClient.newHttpClient();

    public String ratings(int productId) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                HttpRequest req = HttpRequest.newBuilder(URI.create("http://ratings:9080/ratings/" + productId))
                        .timeout(Duration.ofSeconds(10))
                        .build();
                return client.send(req, HttpResponse.BodyHandlers.ofString()).body();
            } catch (java.io.IOException e) {
                last = e;
                Thread.sleep(1000);
            }
        }
        throw last;
    }
}
