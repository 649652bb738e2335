package reviews;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

// The reviews service (Java): one try at `ratings`, no retries of its own;
// the mesh gives the call 1 s.
public class RatingsClient {
    private final HttpClient client = HttpClient.newHttpClient();

    public String ratings(int productId) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://ratings:9080/ratings/" + productId))
                .timeout(Duration.ofSeconds(1))
                .build();
        return client.send(req, HttpResponse.BodyHandlers.ofString()).body();
    }
}
